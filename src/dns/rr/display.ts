// No imports: the web console bundles this file as it is.

/**
 * The one-line display of a record (console, CLI, reports) from its type's
 * `display` template and its records-reply data: `{field}` is the field,
 * `{field|@}` is `@` when it is blank, `{.field}` (or `{ field}`) is the
 * dot (or space) and the field, or nothing when it is blank (SRV's
 * `_sip._tcp{.host}`, SVCB's `{ params}`).
 */
export function displayLine(template: string, reply: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{([. ]?)(\w+)(?:\|([^}]*))?\}/g, (_, dot: string, field: string, blank?: string) => {
    const value = String(reply[field] ?? '');
    if (value === '') return blank ?? '';
    return `${dot}${value}`;
  });
}
