import type { AppConfig } from './appConfig.js';
import { isLoopbackHost } from './isLoopbackHost.js';

/**
 * What an operator should know of a configuration that starts but does not work as they may think: a
 * development server reachable by others, and in production an http `PUBLIC_URL` or RPC, or a sign-in
 * channel without its transport. `buildApp` logs each as a warning.
 *
 * @param channels - Which channels have a transport.
 */
export function configWarnings(
  config: Pick<AppConfig, 'environment' | 'host' | 'publicUrl' | 'rpcUrls'>,
  channels: { email: boolean; sms: boolean },
): string[] {
  const warnings: string[] = [];
  if (config.environment !== 'production' && !isLoopbackHost(config.host)) {
    // loadConfig allows this only with DEV_ALLOW_REMOTE=true.
    warnings.push(
      `HOST=${config.host} (DEV_ALLOW_REMOTE=true): the dev outbox at /dev/outbox shows every sign-in code to ` +
        'anyone who can reach this port, so anyone on that network can sign in as anyone. Use ' +
        'NODE_ENV=production for a server others reach.',
    );
  }
  if (config.environment !== 'production') return warnings;
  if (new URL(config.publicUrl).protocol !== 'https:') {
    warnings.push('PUBLIC_URL is not https: browsers drop the Secure session cookie, so sign-in will fail');
  }
  for (const [chainId, rpcUrl] of Object.entries(config.rpcUrls)) {
    // Not the URL itself: it may hold an API key.
    if (new URL(rpcUrl).protocol !== 'https:') {
      warnings.push(
        `RPC_URL_${chainId} is not https: browsers block it from an https page, so reading that chain fails`,
      );
    }
  }
  for (const channel of ['email', 'sms'] as const) {
    if (!channels[channel]) {
      warnings.push(`no ${channel === 'email' ? 'SMTP_URL' : 'Twilio settings'}: ${channel} sign-in is off`);
    }
  }
  return warnings;
}
