/**
 * N-Triples pages (rdf): one statement per line, so the pages of an export
 * are their lines one after another. Each result item is one statement
 * (SERVICE-CONTRACT "Formats"); blank lines and comments are not rows.
 */
export function ntriplesStatements(text: string): string[] {
  const statements: string[] = []
  for (const raw of text.replace(/^\uFEFF/, '').split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) continue
    statements.push(line)
  }
  return statements
}
