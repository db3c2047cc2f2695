import { Fragment } from "react";

// A message that names one of the app's pages ("Update your card at /account/card …") shows that
// page as a link (issue 32): the words stay the same as in the e-mail or the API's answer, and the
// reader follows the path instead of typing it. Only paths of our own pages, never anything else.

/** The app's own pages a message may name: /account…, /auctions…, /staff…, /reports… */
const PAGE_PATH = /(?<![\w/.:])(\/(?:account|auctions|staff|reports|registration)(?:\/[\w-]+)*)/g;

/** The text's parts: even indexes are words, odd ones paths. */
export const linkedParts = (text: string): string[] => text.split(PAGE_PATH);

/** `text` with each page path in it as a link to that page. */
export function LinkedText({ text }: { text: string }) {
  const parts = linkedParts(text);
  if (parts.length === 1) return text;
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
          <a key={index} href={part}>
            {part}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
