/** What to call a record: its name, title, file name, first and last name, or '#id'. (Tiny: the app bootstrap uses it.) */
export function recordLabel(record: Record<string, unknown> | null | undefined): string {
  if (!record) return '';
  for (const key of ['name', 'title', 'file_name']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  const person = [record.first_name, record.last_name]
    .filter((part) => typeof part === 'string' && part.trim())
    .join(' ');
  if (person) return person;
  return record.id !== undefined ? `#${String(record.id)}` : '';
}
