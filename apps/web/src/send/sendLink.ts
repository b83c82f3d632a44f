import { formatPhoneInput } from '@dial/core';
import type { Chain } from 'viem';
import type { SendDraft } from './useSendForm';

/** The send form as a link opens it. */
export interface SendLink {
  draft: SendDraft;
  /** The network the form is on: the link's, or the one the caller gave. */
  chainId: number;
  /** What the link asked for that cannot be filled in, in words a person can act on. */
  problems: string[];
}

export interface SendLinkOptions {
  chains: readonly Chain[];
  /** The network to use when the link names none (or one that is not offered). */
  chainId: number;
  /** The draft the link's values are written into (an empty form). */
  blank: SendDraft;
  /** Whether USDC can be sent on the chain with this id. */
  hasUsdc(chainId: number): boolean;
}

/** Longer values are cut: nothing this long is a valid recipient or amount, and it still shows as an error. */
const MAX_VALUE = 200;

/**
 * Reads a send link, `/send?to=%2B447400123456&amount=0.1&asset=usdc&network=base`: `to` is a phone number
 * (international, or in the form's country) or a 0x address, `amount` a decimal in the asset's units,
 * `asset` `usdc` or the network's own currency (`native`, `eth`, …), `network` a chain id or name. The
 * values go into the form as if typed, so they are checked exactly as typed ones are, and a bad one shows as
 * that field's error. An asset or network that cannot be picked is a problem; then the amount is left out,
 * as it would be read in the wrong units. Returns null when the query names none of these.
 */
export function readSendLink(search: string, options: SendLinkOptions): SendLink | null {
  const params = new URLSearchParams(search);
  const value = (name: string) => params.get(name)?.slice(0, MAX_VALUE) ?? null;
  const to = value('to');
  const amount = value('amount');
  const asset = value('asset');
  const network = value('network');
  if (to === null && amount === null && asset === null && network === null) return null;

  const problems: string[] = [];
  const draft: SendDraft = { ...options.blank };
  let chain = options.chains.find((candidate) => candidate.id === options.chainId) ?? options.chains[0];
  if (network !== null) {
    const named = findNetwork(options.chains, network);
    if (named === undefined) {
      problems.push(
        `The link names a network that is not offered here. This form is on ${chain?.name ?? 'another network'}: check it is the one you mean.`,
      );
    } else {
      chain = named;
    }
  }

  let amountUnitsKnown = problems.length === 0;
  if (asset !== null && chain !== undefined) {
    const wanted = asset.trim().toLowerCase();
    if (wanted === 'usdc') {
      if (options.hasUsdc(chain.id)) {
        draft.asset = 'usdc';
      } else {
        problems.push(`The link asks for USDC, which is not available on ${chain.name}.`);
        amountUnitsKnown = false;
      }
    } else if (wanted === 'native' || wanted === chain.nativeCurrency.symbol.toLowerCase()) {
      draft.asset = 'native';
    } else {
      problems.push(`The link asks for an asset that cannot be sent on ${chain.name}. Pick one below.`);
      amountUnitsKnown = false;
    }
  }

  if (to !== null) {
    // A '+' left unescaped in a query reads as a space.
    const typed = /^ \d/.test(to) ? `+${to.slice(1)}` : to.trim();
    if (/^0x/i.test(typed)) {
      draft.mode = 'address';
      draft.address = typed;
    } else {
      const formatted = formatPhoneInput(typed, draft.countryCode);
      draft.mode = 'phone';
      draft.phone = formatted.text;
      draft.countryCode = formatted.countryCode;
    }
  }
  if (amount !== null && amountUnitsKnown) draft.amount = amount.trim();

  return { draft, chainId: chain?.id ?? options.chainId, problems };
}

/** The offered network with this chain id or name ("base", "Base Sepolia", "base-sepolia"). */
function findNetwork(chains: readonly Chain[], text: string): Chain | undefined {
  const wanted = normalize(text);
  return chains.find((chain) => String(chain.id) === wanted || normalize(chain.name) === wanted);
}

function normalize(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-');
}
