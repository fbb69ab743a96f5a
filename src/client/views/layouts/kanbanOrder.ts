/**
 * The order of a kanban column's cards (docs/views.md "Kanban"): the board's order field, a number field of the
 * record type, sorted ascending with the cards that have none last. Moving a card within its column writes the
 * fewest values that put it where it was dropped: its own, between its new neighbours, and, only when there is no
 * room between them (whole numbers, or cards without a value before it), the following or preceding cards' too.
 */

export interface RankedCard {
  id: number | string;
  rank: number | null;
}

export interface RankWrite {
  id: RankedCard['id'];
  rank: number;
}

/** A field's values go in steps of `step` (a whole-number field: 1); none: any number. */
function between(low: number, high: number, step: number | undefined): number | null {
  const middle = step ? low + Math.floor((high - low) / 2 / step) * step : (low + high) / 2;
  return middle > low && middle < high ? middle : null;
}

/**
 * The writes that show `cards` (a column as shown, in order) with `id` moved to position `to` (0: first), counted
 * in the column without it. None when the card is already there.
 */
export function ranksAfterMove(
  cards: readonly RankedCard[],
  id: RankedCard['id'],
  to: number,
  step: number | undefined,
): RankWrite[] {
  const from = cards.findIndex((card) => card.id === id);
  if (from < 0) return [];
  const rest = cards.filter((card) => card.id !== id);
  const at = Math.max(0, Math.min(to, rest.length));
  if (at === from) return [];
  const order = [...rest.slice(0, at), cards[from], ...rest.slice(at)];
  const unit = step ?? 1;
  const writes: RankWrite[] = [];
  let last: number | null = null;
  for (let index = 0; index < order.length; index++) {
    const card = order[index];
    const moved = index === at;
    let rank: number | null;
    if (moved) {
      const next = order[index + 1]?.rank ?? null;
      if (last === null) rank = next === null ? (card.rank ?? unit) : next - unit;
      else if (next === null) rank = last + unit;
      else rank = between(last, next, step) ?? last + unit;
    } else if (card.rank !== null && (last === null || card.rank >= last) && !(index > at && card.rank === last)) {
      // Already in order: kept. After the moved card, the first one in order ends the writes.
      last = card.rank;
      if (index > at) break;
      continue;
    } else if (card.rank === null && index > at) break;
    else rank = last === null ? unit : last + unit;
    if (rank !== card.rank) writes.push({ id: card.id, rank });
    last = rank;
  }
  return writes;
}
