/**
 * A question as the built-in assistant reads it: lower-cased with the same length as the original (so a span found
 * in it cuts the person's own words out of the original, capitals kept), and which parts are already understood.
 * Whatever is left at the end must be glue words, or the assistant says what it did not understand instead of
 * answering a different question.
 */
export type Span = [number, number];

/** Words that carry no meaning of their own in a question about records. */
const GLUE = new Set(
  `a an the of in on at for with from to and or by as into within about me my mine i we us our you your it its this that these those there here
  how many much number count total totals what which who whose whom where when is are was were be been being do does did have has had
  show list find give get tell see display let know please can could would should will shall may might must just only also all any every each
  some currently right now so far still ever exist exists existing listed recorded registered stored tracked kept got have there's what's who's
  whats whos thats that's there're are're they them their these those over up out one ones total overall altogether entered in-system system
  database app records record entries track tracked tracking entry items item kind kinds type types currently presently today's hey hi hello thanks thank`.split(
    /\s+/,
  ),
);

export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b`´]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A phrase as a pattern of whole words: spaces match any run of spaces or hyphens ("non union" finds "non-union"). */
export function wordPattern(phrase: string): RegExp {
  return new RegExp(`(?<![\\w'-])${phraseSource(phrase)}(?![\\w-])`, 'g');
}

/** A phrase as the body of a pattern: its words, separated by any run of spaces or hyphens. */
export function phraseSource(phrase: string): string {
  return phrase
    .trim()
    .split(/[\s-]+/)
    .map(escape)
    .join('[\\s-]+');
}

export class Question {
  readonly lower: string;
  private readonly used: boolean[];

  constructor(readonly text: string) {
    this.lower = normalise(text);
    this.used = new Array(text.length).fill(false);
  }

  free(span: Span): boolean {
    for (let i = span[0]; i < span[1]; i++) if (this.used[i]) return false;
    return true;
  }

  take(span: Span | null | undefined): void {
    if (!span) return;
    for (let i = span[0]; i < span[1]; i++) this.used[i] = true;
  }

  /** The first free whole-word occurrence of one of `phrases` (longest first). */
  find(phrases: readonly string[]): { phrase: string; span: Span } | null {
    for (const phrase of [...phrases].sort((a, b) => b.length - a.length)) {
      if (!phrase.trim()) continue;
      for (const match of this.lower.matchAll(wordPattern(phrase))) {
        const span: Span = [match.index!, match.index! + match[0].length];
        if (this.free(span)) return { phrase, span };
      }
    }
    return null;
  }

  /** Every free whole-word occurrence of each of `phrases`, in the order they come in the question. */
  all(phrases: readonly string[]): Array<{ phrase: string; span: Span }> {
    const hits: Array<{ phrase: string; span: Span }> = [];
    for (const phrase of phrases) {
      if (!phrase.trim()) continue;
      for (const match of this.lower.matchAll(wordPattern(phrase))) {
        const span: Span = [match.index!, match.index! + match[0].length];
        if (this.free(span)) hits.push({ phrase, span });
      }
    }
    return hits.sort((a, b) => a.span[0] - b.span[0] || b.span[1] - a.span[1]);
  }

  /** The first free match of a pattern, with its groups' spans. */
  match(pattern: RegExp): RegExpExecArray | null {
    const global = new RegExp(pattern.source, [...new Set(`${pattern.flags}gd`)].join(''));
    for (const match of this.lower.matchAll(global)) {
      if (this.free([match.index!, match.index! + match[0].length])) return match;
    }
    return null;
  }

  /** The person's own words of a span (capitals kept), trimmed. */
  original(span: Span): string {
    return this.text.slice(span[0], span[1]).trim();
  }

  /** The question with a span's words replaced: one reading of it ("in Fresno" -> "in the city of Fresno"). */
  replaced(span: Span, words: string): string {
    return `${this.text.slice(0, span[0])}${words}${this.text.slice(span[1])}`;
  }

  /** The words not understood yet, glue words left out. */
  leftover(): string[] {
    let rest = '';
    for (let i = 0; i < this.lower.length; i++) rest += this.used[i] ? ' ' : this.lower[i];
    return rest
      .split(/[^a-z0-9'$%.-]+/)
      .map((word) => word.replace(/^[-'.]+|[-'.?!]+$/g, ''))
      .filter((word) => word && !GLUE.has(word) && !/^'s$/.test(word));
  }
}
