import { describe, expect, it } from 'vitest';
import { Question } from '../../../src/server/assistant/builtin/text.js';

describe('a question as the built-in assistant reads it', () => {
  it('finds whole phrases only, longest first, and never "union" inside "non-union"', () => {
    const q = new Question('How many Non-Union sites in Los Angeles County?');
    expect(q.find(['union', 'non-union'])?.phrase).toBe('non-union');
    expect(new Question('non-union sites').find(['union'])).toBeNull();
    expect(new Question('non union sites').find(['non-union'])?.phrase).toBe('non-union');
    expect(q.find(['los angeles', 'los angeles county'])?.phrase).toBe('los angeles county');
  });

  it("keeps the person's own capitals and says which words it did not understand", () => {
    const q = new Question('Log a note on Harbor Yard: Crane is UP');
    const hit = q.find(['harbor yard'])!;
    expect(q.original(hit.span)).toBe('Harbor Yard');
    q.take(hit.span);
    expect(q.leftover()).toEqual(['log', 'note', 'crane']);
  });

  it('does not match what is already understood', () => {
    const q = new Question('union sites');
    q.take(q.find(['union'])!.span);
    expect(q.find(['union'])).toBeNull();
    expect(q.leftover()).toEqual(['sites']);
  });
});
