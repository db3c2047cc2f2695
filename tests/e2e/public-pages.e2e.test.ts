import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type JavaScriptMode, javaScriptModes, launchBrowser, openPage, waitForAppIfShipped } from "./browser";

// The public site of spec section 2 and issue 3, in Chromium, with JavaScript on and off.

const SITE = "Upstream Marketplace";
const year = new Date().getFullYear();

type PageCase = {
  path: string;
  status: number;
  title: string;
  heading: string;
  /** Text the main content must contain (spec section 2 and issue 3). */
  says: (string | RegExp)[];
  /** Further checks for this page. */
  check?: (page: Page) => Promise<void>;
  /** Tab through the whole page checking every focus style (the pages with form controls). */
  walkFocus?: boolean;
};

const publicPages: PageCase[] = [
  {
    path: "/",
    status: 200,
    title: `Reverse auctions for upstream oil and gas | ${SITE}`,
    heading: "Welcome to Upstream Marketplace",
    says: [/sign in/i],
    check: expectSignInForm,
    walkFocus: true,
  },
  {
    path: "/about",
    status: 200,
    title: `About | ${SITE}`,
    heading: "About Upstream Marketplace",
    says: [/cost reduction/i, /value retention/i, /time-limited auctions/i],
  },
  {
    path: "/faq",
    status: 200,
    title: `FAQ | ${SITE}`,
    heading: "Frequently asked questions",
    // Every claim of spec section 1.
    says: [
      "$108.15",
      "$11.55",
      /bids cannot be retracted/i,
      "WCB",
      /reserve price is the buyer's maximum/i,
      /auto-bid|automatic/i,
      /closed-bid/i,
      /identities are hidden/i,
      /first seller to enter a given minimum owns it/i,
      /only the buyer and the auctioneer see the bid list/i,
      /seller sees only their own minimum bid/i,
      /buyers choose which pre-qualified sellers are invited/i,
      /buyers pay a per-auction fee/i,
    ],
    walkFocus: true,
  },
  {
    path: "/privacy-policy",
    status: 200,
    title: `Privacy Policy | ${SITE}`,
    heading: "Privacy Policy",
    says: [/governed by the laws of the Province of Alberta/i],
  },
  {
    path: "/terms-and-conditions",
    status: 200,
    title: `Terms & Conditions | ${SITE}`,
    heading: "Terms & Conditions",
    says: [/\bas is\b/i, /restrictions on use/i, /confidential/i, /laws of the Province of Alberta/i],
  },
];
const notFoundPages: PageCase[] = ["/no-such-page", "/about/extra"].map((path) => ({
  path,
  status: 404,
  title: `Page Not Found | ${SITE}`,
  heading: "Page Not Found",
  says: ["Error 404", "The page you are looking for does not exist."],
  check: expectNotFoundContent,
}));
const allPages = [...publicPages, ...notFoundPages];

const mainNavigation = [
  ["Home", "/"],
  ["About", "/about"],
  ["FAQ", "/faq"],
  ["Login", "/login"],
  ["Sign up", "/signup"],
] as const;
const footerLinks = [
  ["About", "/about"],
  ["FAQ", "/faq"],
  ["Terms & Conditions", "/terms-and-conditions"],
  ["Privacy Policy", "/privacy-policy"],
] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A context of its own for this test (cleared, see openPage), handed back when the test ends. */
async function open(mode: JavaScriptMode, options: { width?: number } = {}): Promise<Page> {
  const { context, page } = await openPage(browser, mode, options);
  onTestFinished(() => context.close());
  return page;
}

/**
 * Goes to a path and answers the HTTP status. With JavaScript on, on a page with the app's scripts,
 * waits until React has hydrated and run its effects: the progress indicator's status region is
 * rendered only then (issue 3), so its presence is both the hydration signal and a check that it
 * appears. Quicker than waitForHydration's network-idle wait, which matters on this two-core machine.
 * Pages that work without JavaScript ship none on a first visit (issue 20).
 */
async function visit(page: Page, mode: JavaScriptMode, path: string): Promise<number | undefined> {
  const response = await page.goto(path);
  if (mode === "js") await waitForAppIfShipped(page);
  return response?.status();
}

type FocusedElement = {
  tag: string;
  text: string;
  href: string | null;
  id: string;
  /** Inside main or after it in document order: where focus should go after the skip link. */
  fromMainOn: boolean;
  visibleFocus: boolean;
  inViewport: boolean;
};

/** What has keyboard focus, and whether its focus indicator can be seen. */
function describeFocus(page: Page): Promise<FocusedElement> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    const transparent = (colour: string) => colour === "transparent" || /rgba\(.*,\s*0\)$/.test(colour);
    const outline =
      style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0 && !transparent(style.outlineColor);
    const rect = element.getBoundingClientRect();
    const main = document.querySelector("main");
    const position = main ? main.compareDocumentPosition(element) : 0;
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.textContent ?? "").trim(),
      href: element.getAttribute("href"),
      id: element.id,
      fromMainOn:
        element === main || (position & (Node.DOCUMENT_POSITION_CONTAINED_BY | Node.DOCUMENT_POSITION_FOLLOWING)) !== 0,
      visibleFocus: outline || style.boxShadow !== "none",
      inViewport: rect.width > 0 && rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight,
    };
  });
}

async function expectSignInForm(page: Page): Promise<void> {
  const main = page.getByRole("main");
  const email = main.getByLabel("Email", { exact: true });
  const password = main.getByLabel("Password", { exact: true });
  expect(await email.getAttribute("type")).toBe("email");
  expect(await email.getAttribute("name")).toBe("email");
  expect(await password.getAttribute("type")).toBe("password");
  expect(await password.getAttribute("name")).toBe("password");

  const form = main.locator("form").filter({ has: page.getByLabel("Password", { exact: true }) });
  expect(await form.getAttribute("action")).toMatch(/\/login$/);
  expect((await form.getAttribute("method"))?.toLowerCase()).toBe("post");
  expect(await form.locator("input[name=email]").count()).toBe(1);
  expect(await form.getByRole("button", { name: "Sign in" }).count()).toBe(1);

  expect(await main.locator('a[href="/forgot-password"]').count()).toBeGreaterThan(0);
  expect(await main.locator('a[href="/signup"]').count()).toBeGreaterThan(0);
  expect(await main.locator("img, svg").count()).toBe(0); // a welcome banner without a logo
}

async function expectNotFoundContent(page: Page): Promise<void> {
  const main = page.getByRole("main");
  expect(await main.getByRole("heading", { level: 1 }).innerText()).toBe("Page Not Found");
  expect(await main.getByText("Error 404", { exact: true }).count()).toBe(1);
  expect(await main.getByText("The page you are looking for does not exist.", { exact: true }).count()).toBe(1);
}

describe.each(javaScriptModes)("public pages, JavaScript %s", (mode) => {
  it.each(allPages)(
    "$path: status, title, one h1, content, navigation, footer, keyboard and reflow",
    async (pageCase) => {
      const page = await open(mode);
      expect(await visit(page, mode, pageCase.path)).toBe(pageCase.status);

      // Document basics.
      expect(await page.getAttribute("html", "lang")).toBe("en");
      expect(await page.title()).toBe(pageCase.title);
      expect(await page.locator("h1").count()).toBe(1);
      expect((await page.locator("h1").innerText()).trim()).toBe(pageCase.heading);
      expect(await page.getByRole("main").count()).toBe(1);
      const mainText = await page.getByRole("main").innerText();
      for (const text of pageCase.says) {
        if (typeof text === "string") expect(mainText).toContain(text);
        else expect(mainText).toMatch(text);
      }
      await pageCase.check?.(page);

      // Navigation bar and footer (spec section 2).
      const navigation = page.getByRole("navigation", { name: "Main" });
      for (const [name, href] of mainNavigation) {
        expect(await navigation.getByRole("link", { name, exact: true }).getAttribute("href")).toBe(href);
      }
      const footer = page.getByRole("contentinfo");
      for (const [name, href] of footerLinks) {
        expect(await footer.getByRole("link", { name, exact: true }).getAttribute("href")).toBe(href);
      }
      expect(await footer.innerText()).toMatch(new RegExp(`©\\s*${year}\\b`));

      // Keyboard: the skip link comes first and shows focus; on pages with forms, so does everything else.
      await page.keyboard.press("Tab");
      expect(await describeFocus(page)).toMatchObject({
        tag: "a",
        text: "Skip to main content",
        href: "#main-content",
        visibleFocus: true,
        inViewport: true,
      });
      if (pageCase.walkFocus) {
        const reached: string[] = [];
        for (let step = 0; step < 80; step++) {
          await page.keyboard.press("Tab");
          const focus = await describeFocus(page);
          if (focus.tag === "body" || focus.text === "Skip to main content") break;
          reached.push(focus.text || focus.tag);
          expect(focus.visibleFocus, `focus style of "${focus.text || focus.tag}"`).toBe(true);
        }
        expect(reached).toEqual(expect.arrayContaining(["Home", "Sign up", "Privacy Policy"]));
        // Every link and control on the page is reached once, the skip link aside.
        const focusable = await page
          .locator("a[href], button, input:not([type=hidden]), select, textarea, summary")
          .filter({ visible: true })
          .count();
        expect(reached.length).toBe(focusable - 1);
      }

      // The skip link moves focus to main; the next Tab continues from there, not in the header.
      await page.getByRole("link", { name: "Skip to main content" }).focus();
      await page.keyboard.press("Enter");
      await expect.poll(async () => (await describeFocus(page)).id).toBe("main-content");
      await page.keyboard.press("Tab");
      expect(await describeFocus(page)).toMatchObject({ fromMainOn: true, visibleFocus: true });

      // Reflow: no horizontal scrolling at 320 px, nor at 640 px (1280 px at 200 % zoom).
      for (const width of [320, 640]) {
        await page.setViewportSize({ width, height: 900 });
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `page width at a ${width} px viewport`).toBeLessThanOrEqual(width);
      }
    },
  );

  it("the navigation bar and footer lead to the pages", async () => {
    const page = await open(mode);
    await visit(page, mode, "/");
    const navigation = page.getByRole("navigation", { name: "Main" });
    for (const [name, heading] of [
      ["About", "About Upstream Marketplace"],
      ["FAQ", "Frequently asked questions"],
      ["Home", "Welcome to Upstream Marketplace"],
    ] as const) {
      await navigation.getByRole("link", { name, exact: true }).click();
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(await navigation.getByRole("link", { name, exact: true }).getAttribute("aria-current")).toBe("page");
    }
    await page.getByRole("contentinfo").getByRole("link", { name: "Terms & Conditions" }).click();
    await page.getByRole("heading", { level: 1, name: "Terms & Conditions" }).waitFor();
    expect(await page.title()).toBe(`Terms & Conditions | ${SITE}`);
    expect(new URL(page.url()).pathname).toBe("/terms-and-conditions");
  });
});

/** The FAQ entries shown, by question. */
function shownQuestions(page: Page): Promise<string[]> {
  return page.getByRole("main").locator("h2").allInnerTexts();
}

describe("FAQ search, JavaScript on", () => {
  it("filters live and case-insensitively, shows all when cleared, and announces the count", async () => {
    const page = await open("js");
    await visit(page, "js", "/faq");
    const search = page.getByLabel("Search FAQs");
    const count = page.getByRole("main").getByRole("status");
    expect(await count.getAttribute("aria-live")).not.toBe("off");

    const all = await shownQuestions(page);
    expect(all.length).toBeGreaterThan(10);
    expect(await count.innerText()).toBe(`Showing all ${all.length} questions.`);

    await search.pressSequentially("wcb");
    await expect.poll(() => shownQuestions(page)).not.toEqual(all);
    const wcb = await shownQuestions(page);
    expect(wcb.length).toBeGreaterThan(0);
    for (const entry of await page.getByRole("main").locator("section").allInnerTexts()) {
      expect(entry.toLowerCase()).toContain("wcb");
    }
    expect(await count.innerText()).toMatch(wcb.length === 1 ? /^1 question found\.$/ : /^\d+ questions found\.$/);
    expect(new URL(page.url()).search).toBe(""); // filtered in place, no navigation

    await search.fill("WCB");
    expect(await shownQuestions(page)).toEqual(wcb);
    await search.fill("RESERVE price");
    const reserve = await shownQuestions(page);
    await search.fill("reserve PRICE");
    expect(await shownQuestions(page)).toEqual(reserve);
    expect(reserve.length).toBeGreaterThan(0);
    expect(reserve.length).toBeLessThan(all.length);

    await search.fill("");
    expect(await shownQuestions(page)).toEqual(all);
    expect(await count.innerText()).toBe(`Showing all ${all.length} questions.`);

    await search.fill("xylophone zebra");
    expect(await shownQuestions(page)).toEqual([]);
    expect(await count.innerText()).toBe("No results found.");

    // Enter keeps the live result and does not reload the page.
    await search.fill("wcb");
    await search.press("Enter");
    expect(await shownQuestions(page)).toEqual(wcb);
    expect(await search.inputValue()).toBe("wcb");
  });

  it("a ?q= link opens the FAQ already filtered, with the query in the box", async () => {
    const page = await open("js");
    await visit(page, "js", "/faq?q=WCB");
    const filtered = await shownQuestions(page);
    expect(filtered.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Search FAQs").inputValue()).toBe("WCB");
    await page.getByLabel("Search FAQs").fill("");
    expect((await shownQuestions(page)).length).toBeGreaterThan(filtered.length);
  });
});

describe("FAQ search, JavaScript off", () => {
  it("submits ?q= and the server filters, case-insensitively; nonsense finds nothing", async () => {
    const page = await open("no-js");
    await visit(page, "no-js", "/faq");
    const search = page.getByLabel("Search FAQs");
    const all = await shownQuestions(page);
    expect(all.length).toBeGreaterThan(10);

    await search.fill("wcb");
    await Promise.all([page.waitForURL(/\/faq\?q=wcb$/), search.press("Enter")]);
    const wcb = await shownQuestions(page);
    expect(wcb.length).toBeGreaterThan(0);
    expect(wcb.length).toBeLessThan(all.length);
    expect(await search.inputValue()).toBe("wcb");
    expect(await page.getByRole("main").getByRole("status").innerText()).toMatch(/^\d+ questions? found\.$/);

    await search.fill("WCB");
    await Promise.all([
      page.waitForURL(/\/faq\?q=WCB$/),
      page.getByRole("button", { name: "Search", exact: true }).click(),
    ]);
    expect(await shownQuestions(page)).toEqual(wcb);

    await search.fill("xylophone zebra");
    await Promise.all([page.waitForURL(/\?q=xylophone/), search.press("Enter")]);
    expect(await shownQuestions(page)).toEqual([]);
    expect(await page.getByRole("main").getByText("No results found.", { exact: true }).count()).toBe(1);

    await search.fill("");
    await Promise.all([page.waitForURL(/\/faq\?q=$/), search.press("Enter")]);
    expect(await shownQuestions(page)).toEqual(all);
  });
});

describe("progress indicator", () => {
  it("is absent without JavaScript", async () => {
    const page = await open("no-js");
    for (const { path } of [...publicPages, ...notFoundPages.slice(0, 1)]) {
      await visit(page, "no-js", path);
      expect(await page.locator(".progress").count(), path).toBe(0);
    }
  });

  it("is present after hydration and politely announces a slow navigation", async () => {
    const page = await open("js");
    await visit(page, "js", "/");
    const status = page.locator(".progress [role=status]");
    expect(await status.count()).toBe(1);
    expect(await status.getAttribute("aria-live")).toBe("polite");
    expect((await status.innerText()).trim()).toBe("");

    // Hold back the About route's code so that the navigation stays pending for a while.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/about-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
    await expect.poll(() => status.innerText(), { timeout: 5_000 }).toBe("Loading…");
    release();
    await page.getByRole("heading", { level: 1, name: "About Upstream Marketplace" }).waitFor();
    await expect.poll(() => status.innerText()).toBe("");
  });
});

describe("first visits (issue 20)", () => {
  it("pages that need no JavaScript ship none; the FAQ ships only its live-search module", async () => {
    const page = await open("js");
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    for (const path of [
      "/about",
      "/privacy-policy",
      "/terms-and-conditions",
      "/signup/buyer-registration-complete",
      "/signup/seller-registration-complete",
      "/signup/consultant-registration-complete",
      "/reset-password/complete",
      "/set-password/complete",
      "/account-setup/complete",
      "/no-such-page",
    ]) {
      scripts.length = 0;
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(scripts, path).toEqual([]);
      expect(await page.locator("script, link[rel=modulepreload]").count(), path).toBe(0);
    }
    for (const path of ["/faq", "/faq?q=wcb"]) {
      scripts.length = 0;
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(scripts, path).toEqual([expect.stringMatching(/^\/assets\/faq-live-search-[\w-]+\.js$/)]);
      expect(await page.locator("link[rel=modulepreload]").count(), path).toBe(0);
    }
    // Home keeps the app: its sign-in form shows a pending button, and links navigate inside it.
    await visit(page, "js", "/");
    expect(await page.locator(".progress [role=status]").count()).toBe(1);
  });
});
