import { describe, expect, it } from 'vitest';
import { type ListedStatus, statusChanges } from './statusChanges';

const item = (id: string, text: string, settling = false): ListedStatus => ({
  id,
  label: `Sent ${id} ETH, To *7654`,
  text,
  settling,
});

describe('statusChanges', () => {
  it('announces a listed transfer that settled on another status', () => {
    const memory = new Map([
      ['1', 'Pending'],
      ['2', 'Pending'],
      ['3', 'Confirmed'],
    ]);
    const { messages, memory: next } = statusChanges(memory, [
      item('1', 'Confirmed'),
      item('2', 'Failed'),
      item('3', 'Confirmed'),
    ]);
    expect(messages).toEqual(['Sent 1 ETH, To *7654: Confirmed', 'Sent 2 ETH, To *7654: Failed']);
    expect(next.get('1')).toBe('Confirmed');
    expect(next.get('2')).toBe('Failed');
  });

  it('stays quiet for new transfers and moves between in-progress states, but remembers them', () => {
    const memory = new Map([['1', 'Pending']]);
    const { messages, memory: next } = statusChanges(memory, [
      item('1', 'Pending · still waiting', true),
      item('2', 'Pending', true),
    ]);
    expect(messages).toEqual([]);
    expect(next.get('1')).toBe('Pending');
    expect(next.get('2')).toBe('Pending');
  });

  it('stays quiet when a status goes back to where it was', () => {
    let memory: ReadonlyMap<string, string> = new Map([['1', 'Failed']]);
    const checking = statusChanges(memory, [item('1', 'Pending', true)]);
    expect(checking.messages).toEqual([]);
    memory = checking.memory;
    const again = statusChanges(memory, [item('1', 'Failed')]);
    expect(again.messages).toEqual([]);
    const verified = statusChanges(again.memory, [item('1', 'Confirmed')]);
    expect(verified.messages).toEqual(['Sent 1 ETH, To *7654: Confirmed']);
  });
});
