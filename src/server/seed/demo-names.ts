/**
 * Names of the demo's projects: realistic and never twice. A project is first called by a place word and its kind
 * ("Harbor Medical Center"); once that is taken, by its street address and kind ("4521 Market St Medical Center"),
 * as vendors and owners often name projects; then with its city. `taken` holds every name given so far (and the
 * names already in the database) and receives the new one.
 */
export function distinctProjectName(
  taken: Set<string>,
  place: { word: string; kind: string; street: string; city: string },
): string {
  const candidates = [
    `${place.word} ${place.kind}`,
    `${place.street} ${place.kind}`,
    `${place.city} ${place.street} ${place.kind}`,
  ];
  let name = candidates.find((candidate) => !taken.has(candidate.toLowerCase()));
  for (let n = 2; !name; n++) {
    const numbered = `${candidates[1]} Phase ${n}`;
    if (!taken.has(numbered.toLowerCase())) name = numbered;
  }
  taken.add(name.toLowerCase());
  return name;
}
