import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type SnippetName = 'bind' | 'knot' | 'pdns' | 'pdns-setup' | 'nsd' | 'nsd-addzone' | 'nsd-delzone';

/** A configuration snippet of docs/secondaries.md, placeholders filled: the docs are what the tests run. */
export function docSnippet(name: SnippetName, values: Record<string, string | number>): string {
  const doc = readFileSync(resolve(import.meta.dirname, '../../docs/secondaries.md'), 'utf8');
  const m = new RegExp(`<!-- snippet: ${name} -->\\n\`\`\`(?:sh)?\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!m) throw new Error(`docs/secondaries.md has no ${name} snippet`);
  return m[1]!.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return String(values[key]);
  });
}
