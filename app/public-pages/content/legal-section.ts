/** One section of a static legal page (privacy policy or terms and conditions). */
export type LegalSection = {
  id: string;
  heading: string;
  /** Plain-text paragraphs, shown in order before any list items. */
  paragraphs: string[];
  /** Optional plain-text bullet items, shown after the paragraphs. */
  items?: string[];
};
