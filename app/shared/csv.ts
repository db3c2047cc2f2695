// The one CSV writer of every export (bid history, invoices, reports): RFC 4180 (CRLF line ends,
// quotes doubled), and no cell a spreadsheet would run as a formula: one that starts with = + - @, a
// tab or a carriage return gets a leading apostrophe. Files are sent as attachments, never cached.

/** A cell as written: formula-looking text defused, then quoted when RFC 4180 asks for it. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/** A whole file: the header line, then one line per row. */
export function csvText(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  return [csvLine(columns), ...rows.map(csvLine)].join("");
}

/** A CSV file as a download named `fileName`. */
export function csvResponse(body: string, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
