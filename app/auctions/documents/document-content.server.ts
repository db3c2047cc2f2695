import {
  DOCUMENT_MESSAGES,
  DOCUMENT_TYPES,
  type DocumentKind,
  MAX_DOCUMENT_BYTES,
  mismatchMessage,
} from "./document-types";

// What an uploaded document really is. The name and type a browser sends are only claims: the bytes
// must be what the extension says (magic numbers, and for Office files the parts inside), text must
// be UTF-8 without NUL bytes, and the name is cleaned before it is stored or sent back.

const MAX_NAME_LENGTH = 150;

/**
 * The file name as stored: the last path segment (old browsers send the whole path), NFC, without
 * control or invisible formatting characters (a right-to-left override can disguise "exe.pdf"),
 * characters Windows forbids replaced, no leading or trailing dots or spaces, 150 characters at most
 * with the extension kept. Empty when nothing is left.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/gu, "")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  const characters = Array.from(cleaned);
  if (characters.length <= MAX_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 ? Array.from(cleaned.slice(dot)).slice(0, 10).join("") : "";
  const stem = Array.from(dot > 0 ? cleaned.slice(0, dot) : cleaned)
    .slice(0, MAX_NAME_LENGTH - extension.length)
    .join("")
    .trimEnd();
  return `${stem}${extension}`;
}

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : "";
}

const startsWith = (bytes: Buffer, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\x03\x04
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * The names of a ZIP archive's entries, from its central directory; undefined when the archive
 * has none that can be read (truncated, not a ZIP, ZIP64).
 */
export function zipEntryNames(bytes: Buffer): string[] | undefined {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let end = bytes.length - 22; end >= lowest; end -= 1) {
    if (bytes.readUInt32LE(end) !== 0x06054b50) continue;
    const count = bytes.readUInt16LE(end + 10);
    const offset = bytes.readUInt32LE(end + 16);
    if (count === 0xffff || offset === 0xffffffff) return undefined;
    const names: string[] = [];
    let at = offset;
    for (let index = 0; index < count; index += 1) {
      if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) return undefined;
      const nameLength = bytes.readUInt16LE(at + 28);
      const extraLength = bytes.readUInt16LE(at + 30);
      const commentLength = bytes.readUInt16LE(at + 32);
      if (at + 46 + nameLength > bytes.length) return undefined;
      names.push(bytes.toString("utf8", at + 46, at + 46 + nameLength));
      at += 46 + nameLength + extraLength + commentLength;
    }
    return names;
  }
  return undefined;
}

/** An OLE2 (Compound File) directory names its streams in UTF-16LE: "WordDocument", "Workbook"… */
function hasOleStream(bytes: Buffer, ...names: string[]): boolean {
  return names.some((name) => bytes.includes(Buffer.from(name, "utf16le")));
}

function isUtf8TextWithoutNul(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Whether the bytes are a file of this kind. */
export function contentMatches(kind: DocumentKind, bytes: Buffer): boolean {
  switch (kind) {
    case "pdf":
      return startsWith(bytes, PDF);
    case "png":
      return startsWith(bytes, PNG);
    case "jpeg":
      return startsWith(bytes, JPEG);
    case "zip":
      return startsWith(bytes, ZIP) && zipEntryNames(bytes) !== undefined;
    case "word":
    case "excel": {
      if (!startsWith(bytes, ZIP)) return false;
      const names = zipEntryNames(bytes) ?? [];
      const folder = kind === "word" ? "word/" : "xl/";
      return names.includes("[Content_Types].xml") && names.some((name) => name.startsWith(folder));
    }
    case "word-ole":
      return startsWith(bytes, OLE2) && hasOleStream(bytes, "WordDocument");
    case "excel-ole":
      return startsWith(bytes, OLE2) && hasOleStream(bytes, "Workbook", "Book");
    case "csv":
    case "text":
      return isUtf8TextWithoutNul(bytes);
  }
}

export type InspectedDocument =
  | { ok: true; fileName: string; contentType: string; sizeBytes: number }
  | { ok: false; message: string; status: 400 | 413 };

/** Checks an uploaded file: its size, that its extension is allowed and that its content matches it. */
export function inspectDocument(rawName: string, bytes: Buffer): InspectedDocument {
  if (bytes.length > MAX_DOCUMENT_BYTES) return { ok: false, message: DOCUMENT_MESSAGES.tooBig, status: 413 };
  const fileName = sanitizeFileName(rawName);
  const extension = extensionOf(fileName);
  const type = DOCUMENT_TYPES[extension];
  if (!type || !Object.hasOwn(DOCUMENT_TYPES, extension)) {
    return { ok: false, message: DOCUMENT_MESSAGES.type, status: 400 };
  }
  if (bytes.length === 0) return { ok: false, message: DOCUMENT_MESSAGES.empty, status: 400 };
  if (!contentMatches(type.kind, bytes)) {
    const message = type.kind === "csv" || type.kind === "text" ? DOCUMENT_MESSAGES.text : mismatchMessage(extension);
    return { ok: false, message, status: 400 };
  }
  return { ok: true, fileName, contentType: type.contentType, sizeBytes: bytes.length };
}
