// The browsers the signed-in person's account has signed in from, and forgetting one. Under /api/auth, the
// only path the browser sends its device cookie to, so the list can say which one is this browser.
import { type Static, Type } from 'typebox';
import { PendingAnswerSchema, PROOF_ERRORS, ProofOnlyBodySchema } from './accountChanges.js';
import { defineRoute } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';

const IdSchema = Type.String({ format: 'uuid' });

export const BrowserInfoSchema = Type.Object({
  id: IdSchema,
  name: Type.String({
    description:
      'The browser and system, read from its latest sign-in’s User-Agent (e.g. "Chrome on macOS").',
  }),
  firstSeenAt: Type.String({ format: 'date-time', description: 'Its first sign-in to the account.' }),
  lastSeenAt: Type.String({
    format: 'date-time',
    description: 'Its latest sign-in, or its sessions’ latest request when later.',
  }),
  sessions: Type.Integer({ minimum: 0, description: 'Its live sessions.' }),
  current: Type.Boolean({ description: 'The browser of this request (its device cookie).' }),
});

/** A browser the account has signed in from. */
export type BrowserInfo = Static<typeof BrowserInfoSchema>;

export const listBrowsersRoute = defineRoute({
  ...ENDPOINTS.listBrowsers,
  tags: ['account'],
  summary:
    "The browsers the signed-in person's account knows (signed in from, not forgotten), the most recently seen first.",
  session: true,
  response: { 200: Type.Object({ browsers: Type.Array(BrowserInfoSchema) }) },
  errors: [],
});

export const forgetBrowserRoute = defineRoute({
  ...ENDPOINTS.forgetBrowser,
  tags: ['account'],
  summary:
    'Forgets a browser: ends its sessions, and its next sign-in is a new browser’s, with a notice to the owner. At once with the proof (200), else after the cooling-off period (202).',
  session: true,
  params: Type.Object({ id: IdSchema }),
  body: ProofOnlyBodySchema,
  response: {
    200: Type.Object({ endedSessions: Type.Integer({ minimum: 0 }) }),
    202: PendingAnswerSchema,
  },
  errors: ['not_found', ...PROOF_ERRORS],
});
