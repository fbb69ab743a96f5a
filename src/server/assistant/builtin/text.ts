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

/** Where one of an index's phrases occurs: the phrase's position in the list and the span it covers. */
export interface Occurrence {
  at: number;
  span: Span;
}

/** A whole-word occurrence may start only where no word character, apostrophe or hyphen comes before. */
const WORD_BEFORE = /[\w'-]/;
const WORD_CHAR = /\w/;
const BETWEEN_WORDS = /[\s-]/;

/** The phrases whose words, in order, lead to a node of a PhraseIndex: those that end there, and the next words. */
interface WordNode {
  ends: number[];
  next: Map<string, WordNode>;
}

const wordNode = (): WordNode => ({ ends: [], next: new Map() });

/**
 * A list of phrases as a tree of their words, made once for a list that is searched often (the cities, regions and
 * value words of a vocabulary): a question is matched only against the phrases whose words it holds in that order,
 * instead of one pattern per phrase (2,000 cities in three spellings cost tens of ms a question that way). What it
 * finds is what `wordPattern` finds, phrase by phrase: each candidate is checked with that pattern.
 */
export class PhraseIndex {
  private readonly root = wordNode();
  /** Phrases without words to look up ("-"): always tried. */
  private readonly always: number[] = [];
  private longestWord = 0;
  private readonly patterns: Array<RegExp | undefined> = [];
  private last: { text: string; found: Occurrence[] } | null = null;

  constructor(readonly phrases: readonly string[]) {
    for (const [at, phrase] of phrases.entries()) {
      if (!phrase.trim()) continue;
      const words = phrase.trim().split(/[\s-]+/);
      if (words.some((word) => !word)) {
        this.always.push(at);
        continue;
      }
      let node = this.root;
      for (const word of words) {
        let next = node.next.get(word);
        if (!next) node.next.set(word, (next = wordNode()));
        node = next;
        this.longestWord = Math.max(this.longestWord, word.length);
      }
      node.ends.push(at);
    }
  }

  /** Every whole-word occurrence of each phrase in `text`, as `matchAll` finds them, in the order they start. */
  occurrences(text: string): Occurrence[] {
    if (this.last?.text === text) return this.last.found;
    const found: Occurrence[] = [];
    const searchedFrom = new Map<number, number>();
    for (let start = 0; start < text.length; start++) {
      if (start > 0 && WORD_BEFORE.test(text[start - 1])) continue;
      const candidates = [...this.always];
      this.walk(text, start, this.root, candidates);
      for (const at of candidates.sort((a, b) => a - b)) {
        // One phrase's occurrences do not overlap, as with matchAll.
        if ((searchedFrom.get(at) ?? 0) > start) continue;
        const pattern = this.pattern(at);
        pattern.lastIndex = start;
        const match = pattern.exec(text);
        if (!match) continue;
        const span: Span = [start, start + match[0].length];
        found.push({ at, span });
        searchedFrom.set(at, span[1]);
      }
    }
    this.last = { text, found };
    return found;
  }

  /** The phrases whose next words, from `node` on, are those of `text` at `at`: into `candidates`. */
  private walk(text: string, at: number, node: WordNode, candidates: number[]): void {
    const until = Math.min(text.length, at + this.longestWord);
    for (let end = at + 1; end <= until; end++) {
      // A phrase's word holds no space or hyphen; it ends where a word character does not follow.
      if (BETWEEN_WORDS.test(text[end - 1])) break;
      if (end < text.length && WORD_CHAR.test(text[end])) continue;
      const next = node.next.get(text.slice(at, end));
      if (!next) continue;
      candidates.push(...next.ends);
      if (!next.next.size) continue;
      let after = end;
      while (after < text.length && BETWEEN_WORDS.test(text[after])) after++;
      if (after > end) this.walk(text, after, next, candidates);
    }
  }

  private pattern(at: number): RegExp {
    let pattern = this.patterns[at];
    if (!pattern) {
      pattern = new RegExp(`(?<![\\w'-])${phraseSource(this.phrases[at])}(?![\\w-])`, 'y');
      this.patterns[at] = pattern;
    }
    return pattern;
  }
}

/** The index of a list of phrases, made once for each list (a list kept by a vocabulary is indexed once). */
const indexes = new WeakMap<readonly string[], PhraseIndex>();
export function phraseIndex(phrases: readonly string[] | PhraseIndex): PhraseIndex {
  if (phrases instanceof PhraseIndex) return phrases;
  let index = indexes.get(phrases);
  if (!index) indexes.set(phrases, (index = new PhraseIndex(phrases)));
  return index;
}

/** A fixed pattern as `Question.match` runs it (global, with the groups' spans), made once for each pattern. */
const searching = new WeakMap<RegExp, RegExp>();
function searchingPattern(pattern: RegExp): RegExp {
  let global = searching.get(pattern);
  if (!global) {
    global = new RegExp(pattern.source, [...new Set(`${pattern.flags}gd`)].join(''));
    searching.set(pattern, global);
  }
  return global;
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

  /** The first free whole-word occurrence of one of `phrases` (longest first; of equal lengths, the first listed). */
  find(phrases: readonly string[] | PhraseIndex): { phrase: string; span: Span } | null {
    const index = phraseIndex(phrases);
    let best: Occurrence | null = null;
    for (const hit of index.occurrences(this.lower)) {
      if (!this.free(hit.span)) continue;
      const length = index.phrases[hit.at].length;
      const bestLength = best ? index.phrases[best.at].length : -1;
      if (length > bestLength || (length === bestLength && hit.at < best!.at)) best = hit;
    }
    return best ? { phrase: index.phrases[best.at], span: best.span } : null;
  }

  /** Every free whole-word occurrence of each of `phrases`, in the order they come in the question. */
  all(phrases: readonly string[] | PhraseIndex): Array<{ phrase: string; span: Span }> {
    const index = phraseIndex(phrases);
    return index
      .occurrences(this.lower)
      .filter((hit) => this.free(hit.span))
      .sort((a, b) => a.span[0] - b.span[0] || b.span[1] - a.span[1] || a.at - b.at)
      .map((hit) => ({ phrase: index.phrases[hit.at], span: hit.span }));
  }

  /** The first free match of a pattern, with its groups' spans. */
  match(pattern: RegExp): RegExpExecArray | null {
    for (const match of this.lower.matchAll(searchingPattern(pattern))) {
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
