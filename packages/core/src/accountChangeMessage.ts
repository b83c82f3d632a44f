/**
 * What a change to the account is (the step-up proof's `Action`): each needs the account key's signature,
 * or waits out the cooling-off period when it can be asked for without one.
 */
export type AccountChangeAction =
  | 'link-method'
  | 'remove-method'
  | 'set-findable'
  | 'end-sessions'
  | 'use-wallet'
  | 'export-key'
  | 'cancel-change'
  | 'secure-account'
  | 'forget-browser'
  | 'remove-device';

/** Every action, for schemas and checks. */
export const ACCOUNT_CHANGE_ACTIONS: readonly AccountChangeAction[] = [
  'link-method',
  'remove-method',
  'set-findable',
  'end-sessions',
  'use-wallet',
  'export-key',
  'cancel-change',
  'secure-account',
  'forget-browser',
  'remove-device',
];

/** What an account proof binds: the server's challenge, the account, the key, and exactly which change. */
export interface AccountChangeFields {
  action: AccountChangeAction;
  /**
   * What the action acts on, as {@link accountChangeTarget} writes it: the method linked (`email:a@b.c`), the
   * method, session, browser, wallet device or change named by its id, or `all` (secure-account, ending other sessions).
   */
  target: string;
  /** The single-use challenge the server issued to this session for an account change. */
  challenge: string;
  /** The Dial account (user id). */
  userId: string;
  /** The key that signs: the account's embedded wallet, or (a wallet-only account) one of its own wallets. */
  address: string;
}

/**
 * The target line of each change, the same in the browser and on the server.
 *
 * @example
 * ```ts
 * accountChangeTarget({ action: 'link-method', kind: 'email', value: 'ann@example.com' }); // 'email:ann@example.com'
 * accountChangeTarget({ action: 'set-findable', id, findable: false }); // `${id}:off`
 * ```
 */
export function accountChangeTarget(
  change:
    | { action: 'link-method'; kind: 'phone' | 'email' | 'wallet' | 'passkey'; value: string }
    | { action: 'set-findable'; id: string; findable: boolean }
    | {
        action: 'remove-method' | 'use-wallet' | 'cancel-change' | 'forget-browser' | 'remove-device';
        id: string;
      }
    | { action: 'end-sessions'; id: string | 'all-others' }
    | { action: 'export-key'; address: string }
    | { action: 'secure-account' },
): string {
  switch (change.action) {
    case 'link-method':
      return `${change.kind}:${change.kind === 'wallet' ? change.value.toLowerCase() : change.value}`;
    case 'set-findable':
      return `${change.id}:${change.findable ? 'on' : 'off'}`;
    case 'export-key':
      return change.address.toLowerCase();
    case 'secure-account':
      return 'all';
    default:
      return change.id;
  }
}

/**
 * The text the account's key signs (EIP-191 `personal_sign`) to prove that a change to the account (linking
 * or removing a sign-in method, ending sessions, exporting the key…) comes from whoever holds the key, not
 * from a stolen session or an intercepted code. It binds the server's single-use challenge, the account, the
 * signing address, the action and its target, so a signature cannot be replayed, moved to another account or
 * used for another change. The browser and the server build it with this function.
 *
 * @param fields - What the proof binds.
 * @returns The message, one `Name: value` line each.
 *
 * @example
 * ```ts
 * const message = accountChangeMessage({ action: 'remove-method', target: methodId, challenge, userId, address });
 * const signature = await account.signMessage({ message });
 * ```
 */
export function accountChangeMessage(fields: AccountChangeFields): string {
  return [
    'Dial account change',
    'This signature changes nothing on any chain and costs nothing.',
    `Action: ${fields.action}`,
    `Target: ${fields.target}`,
    `Address: ${fields.address.toLowerCase()}`,
    `Account: ${fields.userId}`,
    `Challenge: ${fields.challenge}`,
  ].join('\n');
}
