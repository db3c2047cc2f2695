import { createRequire } from "node:module";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

// Reads a PDF back as a reader would: its text (pdf.js' getTextContent, page by page) and the
// markers of a tagged PDF in its catalog (checked in the raw bytes: pdfkit writes them uncompressed).

/** pdf.js' metrics of the 14 standard fonts (pdfkit's Helvetica is one), from its own package. */
const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  await document.destroy();
  return pages.join("\n").replace(/\s+/g, " ");
}

/** The structure tree's element types in order (H1, P, Table, TR, TH, TD, ...), as pdf.js reads them. */
export async function pdfStructureTypes(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false })
    .promise;
  const page = await document.getPage(1);
  const tree = await page.getStructTree();
  const types: string[] = [];
  const walk = (node: { role?: string; children?: unknown[] }) => {
    if (node.role) types.push(node.role);
    for (const child of node.children ?? []) walk(child as { role?: string; children?: unknown[] });
  };
  if (tree) walk(tree as never);
  const { info } = (await document.getMetadata()) as unknown as { info: Record<string, unknown> };
  await document.destroy();
  return [`Title:${String(info.Title)}`, ...types];
}

/** The catalog entries of a tagged PDF: MarkInfo Marked true, a StructTreeRoot and a language. */
export function taggedPdfMarkers(bytes: Uint8Array) {
  const raw = Buffer.from(bytes).toString("latin1");
  // MarkInfo is written inline or as a reference to its own object.
  const reference = /\/MarkInfo\s+(\d+)\s+0\s+R/.exec(raw)?.[1];
  const markInfo = reference
    ? new RegExp(`(?:^|\\n)${reference}\\s+0\\s+obj\\s*<<([^>]*)>>`).exec(raw)?.[1]
    : /\/MarkInfo\s*<<([^>]*)>>/.exec(raw)?.[1];
  return {
    marked: /\/Marked\s+true/.test(markInfo ?? ""),
    structTreeRoot: /\/StructTreeRoot\s+\d+\s+0\s+R/.test(raw),
    lang: /\/Lang\s*\(en-CA\)/.exec(raw)?.[0] ?? null,
    displayTitle: /\/DisplayDocTitle\s+true/.test(raw),
  };
}
