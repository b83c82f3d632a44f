import { describe, expect, it } from 'vitest';
import { isReminderSnoozed, REMINDER_SNOOZE_DAYS } from './reminderSnooze';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2030-01-10T12:00:00Z');

describe('isReminderSnoozed', () => {
  it('shows the reminder when "Later" was never pressed', () => {
    expect(isReminderSnoozed(null, NOW)).toBe(false);
  });

  it(`hides it for ${REMINDER_SNOOZE_DAYS} days after "Later", then shows it again`, () => {
    expect(isReminderSnoozed(NOW, NOW)).toBe(true);
    expect(isReminderSnoozed(NOW - REMINDER_SNOOZE_DAYS * DAY + 1, NOW)).toBe(true);
    expect(isReminderSnoozed(NOW - REMINDER_SNOOZE_DAYS * DAY, NOW)).toBe(false);
    expect(isReminderSnoozed(NOW - 30 * DAY, NOW)).toBe(false);
  });

  it('does not let a "Later" dated in the future hide it', () => {
    expect(isReminderSnoozed(NOW + DAY, NOW)).toBe(false);
  });
});
