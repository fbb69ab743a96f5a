import { describe, expect, it } from 'vitest';
import { PhraseIndex, Question, wordPattern } from '../../../src/server/assistant/builtin/text.js';

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

describe("a phrase index (the vocabulary's cities, regions and words, looked up by their words)", () => {
  /** What a question finds with one pattern per phrase (wordPattern), as it did before the index. */
  function patternOccurrences(phrases: string[], text: string) {
    const found: Array<{ at: number; span: [number, number] }> = [];
    for (const [at, phrase] of phrases.entries()) {
      if (!phrase.trim()) continue;
      for (const match of text.matchAll(wordPattern(phrase)))
        found.push({ at, span: [match.index!, match.index! + match[0].length] });
    }
    return found.sort((a, b) => a.span[0] - b.span[0] || a.at - b.at);
  }

  const phrases = [
    'city 12',
    'city of city 12',
    'city 12 city',
    'city 1',
    'union',
    'non-union',
    'non union',
    'g.c.',
    'general contractor',
    "owner's representative",
    'los angeles',
    'los angeles county',
    'la county',
    'a a',
    '-',
    '  ',
    'kern',
    '$5',
  ];
  const questions = [
    'how many sites in city 12',
    'how many sites in the city of city 12 or city-12 or city  12 city',
    'non-union sites without a g.c. and union',
    "sites of the owner's representative in los angeles county",
    'a a a a',
    'city 123 and city 1, and city 12.',
    'kern-county kern county',
    'over $5 million in la county union-ish union_x xunion',
    "union's sites, kern's",
  ];

  it('finds each phrase where its pattern finds it, and nowhere else', () => {
    const index = new PhraseIndex(phrases);
    for (const text of questions)
      expect(
        [...index.occurrences(text)].sort((a, b) => a.span[0] - b.span[0] || a.at - b.at),
        text,
      ).toEqual(patternOccurrences(phrases, text));
  });

  it('gives a question the same longest-first answer with or without the index', () => {
    for (const text of questions) {
      const q = new Question(text);
      const viaIndex = q.find(new PhraseIndex(phrases));
      const sorted = [...phrases].sort((a, b) => b.length - a.length);
      const first = sorted
        .filter((p) => p.trim())
        .map((phrase) => ({ phrase, match: [...text.matchAll(wordPattern(phrase))][0] }))
        .find((x) => x.match);
      expect(viaIndex, text).toEqual(
        first
          ? { phrase: first.phrase, span: [first.match!.index!, first.match!.index! + first.match![0].length] }
          : null,
      );
    }
  });
});
