import { z } from "zod";
import { fileField } from "~/forms/file-schema";
import { DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES } from "./document-types";

// The documents page's two forms: upload one file, and delete a document (asked first, then
// `confirm=yes`). One schema each, for the action and the browser. What the file holds is checked
// by the upload itself (auction-documents.server.ts).

export const uploadDocumentSchema = z.object({
  intent: z.string().optional(),
  file: fileField({ several: DOCUMENT_MESSAGES.several, missing: DOCUMENT_MESSAGES.none }),
});

export const deleteDocumentSchema = z.object({
  intent: z.literal("delete"),
  documentId: z.string().default(""),
  confirm: z.string().optional(),
});

/**
 * The upload form in the browser: the same, and what the server refuses without reading the file's
 * content said before anything is sent (an empty file, or one over the limit, whose body the server
 * refuses by its size).
 */
export const uploadDocumentBrowserSchema = uploadDocumentSchema.extend({
  file: uploadDocumentSchema.shape.file.superRefine((file, context) => {
    if (file.size === 0) context.addIssue({ code: "custom", message: DOCUMENT_MESSAGES.empty });
    else if (file.size > MAX_DOCUMENT_BYTES) context.addIssue({ code: "custom", message: DOCUMENT_MESSAGES.tooBig });
  }),
});
