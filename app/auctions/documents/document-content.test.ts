import { describe, expect, it } from "vitest";
import {
  ALLOWED_SAMPLES,
  CSV,
  DOC,
  DOCX,
  EXE,
  JPEG,
  PDF,
  PNG,
  XLS,
  XLSX,
  ZIP,
  zipArchive,
} from "../../../tests/support/document-samples";
import { inspectDocument, sanitizeFileName, zipEntryNames } from "./document-content.server";
import { DOCUMENT_MESSAGES, formatBytes, MAX_DOCUMENT_BYTES, mismatchMessage } from "./document-types";

describe("an uploaded document's content", () => {
  it.each(ALLOWED_SAMPLES)("accepts $name as $contentType", ({ name, bytes, contentType }) => {
    expect(inspectDocument(name, bytes)).toEqual({ ok: true, fileName: name, contentType, sizeBytes: bytes.length });
  });

  it("refuses names of other types, whatever the content", () => {
    for (const name of ["setup.exe", "script.js", "page.html", "image.svg", "no-extension", "archive.tar.gz", ".pdf"]) {
      expect(inspectDocument(name, PDF), name).toMatchObject({ ok: false, message: DOCUMENT_MESSAGES.type });
    }
  });

  it("refuses content that does not match the extension", () => {
    const cases: [string, Buffer][] = [
      ["setup.pdf", EXE],
      ["invoice.png", PDF],
      ["photo.jpg", PNG],
      ["report.pdf", JPEG],
      ["letter.docx", ZIP],
      ["letter.docx", XLSX],
      ["sheet.xlsx", DOCX],
      ["letter.doc", XLS],
      ["sheet.xls", DOC],
      ["sheet.xls", XLSX],
      ["drawings.zip", Buffer.from("PK\u0003\u0004 but no directory", "latin1")],
      ["letter.docx", EXE],
    ];
    for (const [name, bytes] of cases) {
      const extension = name.split(".").pop() ?? "";
      expect(inspectDocument(name, bytes), name).toEqual({
        ok: false,
        status: 400,
        message: mismatchMessage(extension),
      });
    }
  });

  it("accepts only UTF-8 text without NUL bytes as text or CSV", () => {
    expect(inspectDocument("items.csv", Buffer.from("a,b\n\u00e9t\u00e9,1\n", "utf8"))).toMatchObject({ ok: true });
    for (const [name, bytes] of [
      ["setup.txt", EXE],
      ["items.csv", Buffer.from("a,b\n\u00e9t\u00e9,1\n", "latin1")],
      ["items.csv", Buffer.concat([CSV, Buffer.from([0])])],
      ["notes.txt", PNG],
    ] as const) {
      expect(inspectDocument(name, bytes), name).toMatchObject({ ok: false, message: DOCUMENT_MESSAGES.text });
    }
  });

  it("refuses an empty file and one over 10 MB", () => {
    expect(inspectDocument("empty.pdf", Buffer.alloc(0))).toMatchObject({ ok: false, status: 400 });
    const limit = Buffer.concat([PDF, Buffer.alloc(MAX_DOCUMENT_BYTES - PDF.length)]);
    expect(inspectDocument("big.pdf", limit)).toMatchObject({ ok: true, sizeBytes: MAX_DOCUMENT_BYTES });
    expect(inspectDocument("bigger.pdf", Buffer.concat([limit, Buffer.alloc(1)]))).toEqual({
      ok: false,
      status: 413,
      message: DOCUMENT_MESSAGES.tooBig,
    });
  });

  it("reads a ZIP archive's entry names from its central directory", () => {
    expect(zipEntryNames(zipArchive({ "a.txt": "a", "folder/b.xml": "<b/>" }))).toEqual(["a.txt", "folder/b.xml"]);
    expect(zipEntryNames(Buffer.from("not a zip"))).toBeUndefined();
    expect(zipEntryNames(ZIP.subarray(0, ZIP.length - 30))).toBeUndefined();
  });
});

describe("a stored file name", () => {
  it("keeps an ordinary name as it is", () => {
    expect(sanitizeFileName("Scope of work (rev 2).pdf")).toBe("Scope of work (rev 2).pdf");
    expect(sanitizeFileName("Société Générale – devis.pdf")).toBe("Société Générale – devis.pdf");
  });

  it("drops paths, control and invisible characters, and what Windows forbids", () => {
    expect(sanitizeFileName("C:\\Users\\sam\\Desktop\\plan.pdf")).toBe("plan.pdf");
    expect(sanitizeFileName("../../etc/passwd.txt")).toBe("passwd.txt");
    expect(sanitizeFileName("a\u0000b\r\nc.txt")).toBe("ab c.txt");
    expect(sanitizeFileName('what?"<now>*|:.pdf')).toBe("what___now____.pdf");
    // A right-to-left override would show "invoiceexe.pdf" for a program.
    expect(sanitizeFileName("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(sanitizeFileName("  ..hidden.pdf. . ")).toBe("hidden.pdf");
    expect(sanitizeFileName("tabs\tand   spaces.txt")).toBe("tabs and spaces.txt");
    expect(sanitizeFileName("...")).toBe("");
  });

  it("shortens a long name to 150 characters and keeps its extension", () => {
    const name = sanitizeFileName(`${"é".repeat(400)}.docx`);
    expect(Array.from(name)).toHaveLength(150);
    expect(name.endsWith("é.docx")).toBe(true);
  });

  it("checks the extension of the cleaned name", () => {
    expect(inspectDocument("invoice\u202Efdp.exe", PDF)).toMatchObject({ ok: false, message: DOCUMENT_MESSAGES.type });
    expect(inspectDocument("C:\\docs\\plan.PDF", PDF)).toMatchObject({ ok: true, fileName: "plan.PDF" });
  });
});

describe("sizes", () => {
  it("reads as bytes, KB or MB", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(900)).toBe("900 bytes");
    expect(formatBytes(1536)).toBe("2 KB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10.0 MB");
  });
});
