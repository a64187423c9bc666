// The documents of the editor's text as texts, without parsing them (no YAML parser: this runs on every
// keystroke for the editor's document count, and is part of the first paint). ./actions.ts parses them.

/** Splits multi-document YAML on `---` lines (a `# ...` or a value after `---` stays with its document). */
export function documentParts(text: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (/^---(\s|$)/.test(line)) {
      parts.push(current.join('\n'));
      current = [];
      const rest = line.slice(3).trim();
      if (rest && !rest.startsWith('#')) current.push(rest);
    } else if (/^\.\.\.\s*$/.test(line)) {
      // document end marker
    } else current.push(line);
  }
  parts.push(current.join('\n'));
  return parts.filter((part) => !part.split('\n').every((l) => l.trim() === '' || l.trimStart().startsWith('#')));
}

/** How many documents the text holds (the same count as `splitDocuments(text).length`). */
export function countDocuments(text: string): number {
  return documentParts(text).length;
}
