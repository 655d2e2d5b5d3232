/** Text as HTML character data or a quoted attribute value: &, <, > and " as numeric character references. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
