/** Case- and diacritics-insensitive form for search: "Košice" and "kosice" both fold to "kosice". */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** A LIKE pattern matching `value` anywhere, with LIKE's own wildcards escaped. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
