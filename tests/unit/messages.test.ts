import { describe, expect, it } from 'vitest';
import { isTimeZone, nextAllowed } from '../../src/server/messages/quiet-hours.js';
import { isStopReply, normalisePhone, signatureOf } from '../../src/server/messages/sms-provider.js';

describe('quiet hours', () => {
  const quiet = { start: 21 * 60, end: 9 * 60 };
  it('lets a message go outside them at once', () => {
    const noon = new Date('2026-11-30T20:00:00Z'); // 12:00 in Los Angeles
    expect(nextAllowed(noon, 'America/Los_Angeles', quiet)).toEqual(noon);
  });
  it('holds one sent at night until the morning of the recipient’s clock, across midnight', () => {
    const late = new Date('2026-12-01T06:30:00Z'); // 22:30 in Los Angeles, 01:30 in New York
    expect(nextAllowed(late, 'America/Los_Angeles', quiet).toISOString()).toBe('2026-12-01T17:00:00.000Z');
    expect(nextAllowed(late, 'America/New_York', quiet).toISOString()).toBe('2026-12-01T14:00:00.000Z');
  });
  it('takes a span within one day too, and none', () => {
    const lunch = { start: 12 * 60, end: 13 * 60 };
    expect(nextAllowed(new Date('2026-11-30T20:15:00Z'), 'America/Los_Angeles', lunch).toISOString()).toBe(
      '2026-11-30T21:00:00.000Z',
    );
    const at = new Date('2026-12-01T06:30:00Z');
    expect(nextAllowed(at, 'America/Los_Angeles', null)).toEqual(at);
  });
  it('knows a time zone from anything else', () => {
    expect(isTimeZone('America/Chicago')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone(3)).toBe(false);
  });
});

describe('SMS provider', () => {
  it('keeps phone numbers in one form', () => {
    expect(normalisePhone('(555) 010-0001')).toBe('+15550100001');
    expect(normalisePhone('1-555-010-0001')).toBe('+15550100001');
    expect(normalisePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(normalisePhone('n/a')).toBe('');
  });
  it('reads the carriers’ stop words alone, not inside a sentence', () => {
    for (const word of ['STOP', 'stop', ' Unsubscribe ', 'Cancel.', 'END', 'quit!'])
      expect(isStopReply(word)).toBe(true);
    expect(isStopReply("Don't stop")).toBe(false);
  });
  it('signs as Twilio documents: the URL, then each parameter sorted by name', () => {
    // Twilio's own example (TwilioDevEd/api-snippets, security/signature_validation).
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675310',
      Digits: '1234',
      From: '+14158675310',
      To: '+18005551212',
    };
    expect(signatureOf('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      'GvWf1cFY/Q7PnoempGyD5oXAezc=',
    );
  });
});
