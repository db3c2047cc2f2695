import { createRequire } from "node:module";
import path from "node:path";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

// Reads a PDF back as a reader would: its text (pdf.js' getTextContent, page by page), the
// markers of a tagged PDF in its catalog and its fonts (checked in the raw bytes: pdfkit writes
// dictionaries uncompressed), its XMP metadata and what the pages draw outside marked content.

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

/** The XMP metadata's PDF/UA part (pdfuaid:part) and title (dc:title), as pdf.js reads them. */
export async function pdfXmp(bytes: Uint8Array) {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const { metadata } = await document.getMetadata();
  await document.destroy();
  return { pdfuaPart: metadata?.get("pdfuaid:part") ?? null, title: metadata?.get("dc:title") ?? null };
}

const PAINTING = new Set<number>([
  OPS.showText,
  OPS.showSpacedText,
  OPS.nextLineShowText,
  OPS.nextLineSetSpacingShowText,
  OPS.stroke,
  OPS.closeStroke,
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
  OPS.shadingFill,
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintFormXObjectBegin,
]);

/**
 * The operators (pdf.js' names) that draw something outside any marked content on any page: PDF/UA
 * wants every mark either in the structure tree or an artifact. pdf.js folds a path's painting
 * operator into constructPath; a path only clipped (`W n`) draws nothing.
 */
export async function unmarkedDrawing(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false })
    .promise;
  const names = new Map(Object.entries(OPS).map(([name, code]) => [code, name]));
  const unmarked: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const { fnArray, argsArray } = await (await document.getPage(number)).getOperatorList();
    let depth = 0;
    fnArray.forEach((fn, index) => {
      if (fn === OPS.beginMarkedContent || fn === OPS.beginMarkedContentProps) depth += 1;
      else if (fn === OPS.endMarkedContent) depth -= 1;
      else if (depth === 0) {
        const painting = fn === OPS.constructPath ? (argsArray[index] as number[])[0] : fn;
        if (painting !== undefined && PAINTING.has(painting)) unmarked.push(names.get(painting) ?? String(painting));
      }
    });
  }
  await document.destroy();
  return unmarked;
}

/**
 * The fonts the pages use (the font dictionaries that are not a Type0 font's descendant), with
 * whether their program is embedded (FontFile, FontFile2 or FontFile3 in their descriptor).
 */
export function pdfFonts(bytes: Uint8Array) {
  const raw = Buffer.from(bytes).toString("latin1");
  // Each object's dictionary: what follows `N 0 obj` up to its stream or its end.
  const objects = new Map<string, string>();
  for (const match of raw.matchAll(/(?:^|\n)(\d+) 0 obj\b/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const ends = ["\nstream", "\nendobj"].map((end) => raw.indexOf(end, start)).filter((at) => at >= 0);
    objects.set(match[1] ?? "", raw.slice(start, Math.min(...ends)));
  }
  const referenced = (dictionary: string, key: string) => {
    const id = new RegExp(`/${key}\\s*\\[?\\s*(\\d+) 0 R`).exec(dictionary)?.[1];
    return id ? (objects.get(id) ?? "") : "";
  };
  return [...objects.values()]
    .filter((dictionary) => /\/Type\s*\/Font\b/.test(dictionary) && !/\/Subtype\s*\/CIDFontType[02]\b/.test(dictionary))
    .map((font) => {
      const subtype = /\/Subtype\s*\/(\w+)/.exec(font)?.[1] ?? "";
      const descriptor = referenced(subtype === "Type0" ? referenced(font, "DescendantFonts") : font, "FontDescriptor");
      return {
        name: /\/BaseFont\s*\/([^\s/<>[\]]+)/.exec(font)?.[1] ?? "",
        subtype,
        embedded: /\/FontFile[23]?\s+\d+ 0 R/.test(descriptor),
      };
    });
}
