import type { Country } from '@dial/core';

/** '+44' for a calling code given as '44' (a leading '+' is tolerated). */
export function formatCallCode(callCode: string): string {
  return `+${callCode.replace(/^\+/, '')}`;
}

/** How an option reads: '🇬🇧 United Kingdom +44'. */
export function countryLabel(country: Country): string {
  return `${country.flag} ${country.name} ${formatCallCode(country.callCode)}`;
}

/**
 * The countries matching what was typed in the picker's search box, best first.
 *
 * - Digits, optionally after '+' or '00' ("44", "+44", "0044"): calling codes starting with them.
 * - Letters: the ISO code ("gb") first, then names starting with the text, then names containing it
 *   ("king"). Case and accents are ignored ("cote" finds "Côte d’Ivoire").
 *
 * @example filterCountries(countries, '+44') // Guernsey, Isle of Man, Jersey, United Kingdom
 */
export function filterCountries(countries: readonly Country[], query: string): Country[] {
  const text = query.trim();
  if (text === '') return [...countries];

  const callCode = /^(?:\+|00)?\s*(\d[\d\s]*)$/.exec(text)?.[1]?.replace(/\s/g, '');
  if (callCode !== undefined) {
    return countries.filter((country) => country.callCode.replace(/^\+/, '').startsWith(callCode));
  }

  const wanted = fold(text);
  const ranked: { country: Country; rank: number; index: number }[] = [];
  countries.forEach((country, index) => {
    const name = fold(country.name);
    let rank: number;
    if (country.code.toLowerCase() === wanted) rank = 0;
    else if (name.startsWith(wanted)) rank = 1;
    else if (name.split(/[\s\-’'(),.]+/).some((word) => word.startsWith(wanted))) rank = 2;
    else if (name.includes(wanted)) rank = 3;
    else return;
    ranked.push({ country, rank, index });
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.index - b.index).map(({ country }) => country);
}

/** Lower case without accents, for matching names as people type them. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
