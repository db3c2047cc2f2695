import { counted } from "~/shared/words";

// The documents an auction may carry (issue 9): which types, how big, how many. Shared by the page
// (its hint and the browser-side size check) and the server (which checks the content itself).

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENTS_PER_AUCTION = 20;

export type DocumentKind =
  | "pdf"
  | "word"
  | "word-ole"
  | "excel"
  | "excel-ole"
  | "csv"
  | "text"
  | "png"
  | "jpeg"
  | "zip";

type DocumentType = { kind: DocumentKind; label: string; contentType: string };

/** Allowed file name extensions (lower case), what each must contain, and the type it is served as. */
export const DOCUMENT_TYPES: Record<string, DocumentType> = {
  pdf: { kind: "pdf", label: "PDF document", contentType: "application/pdf" },
  doc: { kind: "word-ole", label: "Word document", contentType: "application/msword" },
  docx: {
    kind: "word",
    label: "Word document",
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  },
  xls: { kind: "excel-ole", label: "Excel workbook", contentType: "application/vnd.ms-excel" },
  xlsx: {
    kind: "excel",
    label: "Excel workbook",
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  },
  csv: { kind: "csv", label: "CSV file", contentType: "text/csv; charset=utf-8" },
  txt: { kind: "text", label: "text file", contentType: "text/plain; charset=utf-8" },
  png: { kind: "png", label: "PNG image", contentType: "image/png" },
  jpg: { kind: "jpeg", label: "JPEG image", contentType: "image/jpeg" },
  jpeg: { kind: "jpeg", label: "JPEG image", contentType: "image/jpeg" },
  zip: { kind: "zip", label: "ZIP archive", contentType: "application/zip" },
};

/** For the file input's `accept`: the browser's picker offers these first (the server still checks). */
export const ACCEPT_ATTRIBUTE = Object.keys(DOCUMENT_TYPES)
  .map((extension) => `.${extension}`)
  .join(",");

export const DOCUMENT_HINT =
  "PDF, Word (.doc, .docx), Excel (.xls, .xlsx), CSV, plain text (.txt), PNG, JPEG or ZIP; 10 MB at most. One file at a time; up to 20 documents per auction.";

export const DOCUMENT_MESSAGES = {
  none: "Select a file to upload",
  several: "Upload one file at a time",
  empty: "The selected file is empty",
  tooBig: "The selected file must be 10 MB or smaller",
  type: "The selected file must be a PDF, Word, Excel, CSV, text, PNG, JPEG or ZIP file",
  text: "The selected file must be text saved as UTF-8 (in Excel: CSV UTF-8). Save it again as UTF-8 and upload it",
  tooMany: `This auction already has ${MAX_DOCUMENTS_PER_AUCTION} documents, the most allowed. Delete one before you upload another`,
  locked: "Bidding has started: documents can no longer be added or removed.",
  unreadable: "The upload could not be read. Please choose the file again and upload it.",
  gone: "That document has already been removed.",
} as const;

/** "The selected file is not a real PDF document …": the content does not match the name. */
export function mismatchMessage(extension: string): string {
  const type = DOCUMENT_TYPES[extension];
  return `The selected file is not a real ${type?.label ?? "file of its type"}: its content does not match its .${extension} name. Upload the file in the format its name says`;
}

/** 1.2 MB, 340 KB, 12 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return counted(bytes, "byte", "bytes");
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "Word document" for a stored content type, for the list. */
export function typeLabel(contentType: string): string {
  return Object.values(DOCUMENT_TYPES).find((type) => type.contentType === contentType)?.label ?? "File";
}

/** One sealed bid's whole upload (the amount and a file per required document), read in one request. */
export const MAX_SEALED_BID_BODY_BYTES = 50 * 1024 * 1024;
export const SEALED_BID_TOO_BIG =
  "The files of one bid must be 50 MB or smaller together. Send fewer at once: once your bid is in, you can replace its documents one at a time";
