// "Did you mean …?" for mistyped commands and flags: the nearest known word by edit distance.

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
      rows[i].push(best);
    }
  }
  return rows[a.length][b.length];
}

/** The known word `typed` most likely meant, or undefined when none is close: a word it starts
 * (an abbreviation such as `fix` for `fixtures`), else the nearest within a third of its length
 * (at least two edits). */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  if (lower.length >= 3) {
    const prefixed = known.filter((word) => word.startsWith(lower));
    if (prefixed.length === 1) return prefixed[0];
  }
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(lower.length / 3)) + 1;
  for (const word of known) {
    const distance = editDistance(lower, word);
    if (distance < bestDistance) {
      best = word;
      bestDistance = distance;
    }
  }
  return best;
}
