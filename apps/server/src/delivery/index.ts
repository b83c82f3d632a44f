export {
  createLinkMessageText,
  createMessageText,
  createNoticeText,
  createReauthMessageText,
} from './messageText.js';
export { createOutboxTransport, type OutboxRecord, type OutboxStore } from './outboxTransport.js';
export { createSmtpTransport, type SmtpTransportOptions } from './smtpTransport.js';
export { DeliveryError, type MessageTransport, type OutboundMessage } from './transport.js';
export { createTwilioTransport, type TwilioTransportOptions } from './twilioTransport.js';
