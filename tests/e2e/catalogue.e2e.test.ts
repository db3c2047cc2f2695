import type { Page } from "playwright-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { signInAs } from "./app-pages";
import {
  baseURL,
  browserForFile,
  expectNoAxeViolations,
  type JavaScriptMode,
  javaScriptModes,
  openPageWithoutAppScripts,
  validateHtml,
  waitForHydration,
} from "./browser";
import { STAFF } from "./staff-account";

// Issue 5 in Chromium: the staff catalogue pages and the checkbox pickers, with JavaScript on and off.

const { browser, open } = browserForFile();

/** Signs in as staff (see signInAs) and opens `path`; `ready` waits for hydration where needed. */
async function signInAsStaff(page: Page, path: string): Promise<void> {
  await signInAs(page, "no-js", STAFF, path);
}

/** With JavaScript, wait for hydration so the app (not the browser's default) handles the next click. */
async function ready(page: Page, mode: JavaScriptMode): Promise<void> {
  if (mode === "js") await waitForHydration(page);
}

const errorSummary = (page: Page) => page.locator(".alert--error");
const notice = (page: Page) => page.locator(".alert--success");

describe.each(javaScriptModes)("staff catalogue pages, JavaScript %s", (mode) => {
  it("sends visitors to sign in", async () => {
    const page = await open(mode);
    await page.goto("/staff/services");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("ref")).toBe("/staff/services");
  });

  it("adds, edits and deletes a service, with every error shown", async () => {
    const page = await open(mode);
    const name = `Seismic (${mode})`;
    await signInAsStaff(page, "/staff/services");
    await ready(page, mode);
    await page.getByRole("link", { name: "Add a service" }).click();
    await page.getByRole("heading", { name: "Add a service" }).waitFor();
    await ready(page, mode);

    await page.getByRole("button", { name: "Add service" }).click();
    await expect
      .poll(() => errorSummary(page).getByRole("link", { name: "Please enter a name" }).isVisible())
      .toBe(true);
    await expect.poll(() => page.locator("#service-name-error").textContent()).toContain("Please enter a name");

    // A duplicate top group: the server's 409, at the field, with what was typed kept.
    await page.getByLabel("Name", { exact: true }).fill("drilling");
    await page.getByLabel("Cost account code (optional)").fill("990");
    await page.getByRole("button", { name: "Add service" }).click();
    const duplicate = "A service with this name already exists under the same parent.";
    await errorSummary(page).getByRole("link", { name: duplicate }).waitFor();
    await expect.poll(() => page.locator("#service-name-error").textContent()).toContain(duplicate);
    await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue()).toBe("drilling");
    await expect.poll(() => page.getByLabel("Cost account code (optional)").inputValue()).toBe("990");

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Parent service").selectOption({ label: "Drilling" });
    await page.getByRole("button", { name: "Add service" }).click();
    await page.waitForURL((url) => url.pathname === "/staff/services" && url.search === "?done=created");
    await expect.poll(() => notice(page).textContent()).toContain("Service added.");
    await ready(page, mode);

    await page.getByRole("link", { name: `Edit ${name}`, exact: true }).click();
    await page.getByRole("heading", { name: "Edit service" }).waitFor();
    await ready(page, mode);
    await expect(page.getByLabel("Parent service").inputValue()).resolves.not.toBe("");
    await page.getByLabel("Name", { exact: true }).fill(`${name} edited`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL((url) => url.search === "?done=updated");
    // With JavaScript the address changes a moment before the list is rendered.
    await expect.poll(() => page.locator(".tree__name", { hasText: `${name} edited` }).count()).toBe(1);
    await ready(page, mode);

    // Deleting a group with sub-services is refused, saying why.
    await page.getByRole("link", { name: "Delete Drilling", exact: true }).click();
    await page.getByRole("heading", { name: "Delete service" }).waitFor();
    await ready(page, mode);
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await errorSummary(page).getByText("This service has sub-services. Delete or move them first.").waitFor();

    await page.goto("/staff/services");
    await ready(page, mode);
    await page.getByRole("link", { name: `Delete ${name} edited`, exact: true }).click();
    await page.getByText(`Delete ${name} edited?`).waitFor();
    await ready(page, mode);
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL((url) => url.search === "?done=deleted");
    await expect.poll(() => notice(page).textContent()).toContain("Service deleted.");
    await expect.poll(() => page.locator(".tree__name", { hasText: `${name} edited` }).count()).toBe(0);
  });

  it("adds, edits and deletes a service area, with every error shown", async () => {
    const page = await open(mode);
    const city = `Turner Valley ${mode}`;
    await signInAsStaff(page, "/staff/service-areas/new");
    await ready(page, mode);

    await page.getByRole("button", { name: "Add service area" }).click();
    await errorSummary(page).getByRole("link", { name: "Please enter a city" }).waitFor();
    await expect.poll(() => errorSummary(page).getByRole("link", { name: "Please choose a province" }).count()).toBe(1);

    await page.getByLabel("City or town").fill("grande prairie");
    await page.getByLabel("Province or territory").selectOption({ label: "Alberta" });
    await page.getByRole("button", { name: "Add service area" }).click();
    const duplicate = "This city is already a service area in that province.";
    await errorSummary(page).getByRole("link", { name: duplicate }).waitFor();
    await expect.poll(() => page.getByLabel("City or town").inputValue()).toBe("grande prairie");
    await expect(page.getByLabel("Province or territory").inputValue()).resolves.not.toBe("");

    await page.getByLabel("City or town").fill(city);
    await page.getByRole("button", { name: "Add service area" }).click();
    await page.waitForURL((url) => url.pathname === "/staff/service-areas" && url.search === "?done=created");
    await expect.poll(() => notice(page).textContent()).toContain("Service area added.");
    await ready(page, mode);

    await page.getByRole("link", { name: `Edit ${city}`, exact: true }).click();
    await page.getByRole("heading", { name: "Edit service area" }).waitFor();
    await ready(page, mode);
    await page.getByLabel("City or town").fill(`${city} West`);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL((url) => url.search === "?done=updated");
    await ready(page, mode);

    await page.getByRole("link", { name: `Delete ${city} West`, exact: true }).click();
    await page.getByText(`Delete ${city} West, Alberta?`).waitFor();
    await ready(page, mode);
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL((url) => url.search === "?done=deleted");
    await expect.poll(() => page.locator(".tree__name", { hasText: `${city} West` }).count()).toBe(0);
  });

  it("creates an API token shown once, which the API accepts until it is revoked", async () => {
    const page = await open(mode);
    const name = `Import script ${mode}`;
    await signInAsStaff(page, "/staff/api-tokens");
    await ready(page, mode);

    await page.getByRole("button", { name: "Create token" }).click();
    await errorSummary(page).getByRole("link", { name: "Please enter a name for the token" }).waitFor();

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Lifetime").selectOption("30");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
    expect(token).toMatch(/^umk_/);

    const create = (bearer: string) =>
      fetch(`${baseURL()}/api/service_areas`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ city: `Token Town ${mode}`, province: "SK" }),
      });
    expect((await create(token)).status).toBe(201);

    // Shown once: a fresh visit lists the token but never shows it again.
    await page.goto("/staff/api-tokens");
    await ready(page, mode);
    await expect(page.content()).resolves.not.toContain(token);
    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    await page.waitForURL((url) => url.search === "?done=revoked");
    await expect.poll(() => page.getByRole("row", { name: new RegExp(name) }).textContent()).toContain("Revoked");
    expect((await create(token)).status).toBe(401);
  });
});

describe.each(javaScriptModes)("checkbox pickers, JavaScript %s", (mode) => {
  const alberta = (page: Page) =>
    page.locator("fieldset.checkbox-group", { has: page.locator("legend", { hasText: /^Alberta$/ }) });
  const albertaCities = (page: Page) => alberta(page).locator('input[name="serviceAreas"]');
  const checkedCount = (page: Page) =>
    albertaCities(page).evaluateAll((boxes) => boxes.filter((box) => (box as HTMLInputElement).checked).length);

  it("'check all' per province selects its cities, and the province box follows its cities", async () => {
    const page = await open(mode);
    await signInAsStaff(page, "/staff/pickers");
    await ready(page, mode);
    const total = await albertaCities(page).count();
    expect(total).toBeGreaterThan(10);
    const provinceBox = page.getByRole("checkbox", { name: "Check all Alberta" });
    const calgary = page.getByRole("checkbox", { name: "Calgary (Alberta)" });

    await provinceBox.check();
    if (mode === "js") {
      // At once in the page, announced.
      await expect.poll(() => checkedCount(page)).toBe(total);
      await expect
        .poll(() => page.locator("#service-areas [role=status]").textContent())
        .toBe(`Alberta: all ${total} cities selected.`);
      await calgary.uncheck();
      await expect.poll(() => provinceBox.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
      await expect.poll(() => provinceBox.isChecked()).toBe(false);
      await expect
        .poll(() => page.locator("#service-areas [role=status]").textContent())
        .toBe(`Alberta: ${total - 1} of ${total} cities selected.`);
      await calgary.check();
      await expect.poll(() => provinceBox.isChecked()).toBe(true);
    }
    // Without JavaScript the server expands the province when the form is sent.
    await page.getByRole("button", { name: "Show selection" }).click();
    await notice(page).getByText(`${total} service areas`).waitFor();
    await ready(page, mode);
    await expect.poll(() => checkedCount(page)).toBe(total);
    await expect.poll(() => provinceBox.isChecked()).toBe(true);

    // Unticking one city under a ticked province keeps the others.
    await calgary.uncheck();
    await page.getByRole("button", { name: "Show selection" }).click();
    await notice(page)
      .getByText(`${total - 1} service areas`)
      .waitFor();
    await expect.poll(() => calgary.isChecked()).toBe(false);
    await expect.poll(() => provinceBox.isChecked()).toBe(false);
    await expect.poll(() => checkedCount(page)).toBe(total - 1);
  });

  it("'check all' per service group selects its sub-services and sub-sub-services", async () => {
    const page = await open(mode);
    await signInAsStaff(page, "/staff/pickers");
    await ready(page, mode);
    await page.getByRole("checkbox", { name: "Check all Drilling", exact: true }).check();
    await page.getByRole("button", { name: "Show selection" }).click();
    await notice(page)
      .getByText(/\d+ services: .*Conventional rigs, Drilling rigs, Drilling/)
      .waitFor();
    await expect
      .poll(() => page.getByRole("checkbox", { name: "Conventional rigs (Drilling rigs, Drilling)" }).isChecked())
      .toBe(true);
    await expect
      .poll(() => page.getByRole("checkbox", { name: "Check all Drilling rigs (Drilling)" }).isChecked())
      .toBe(true);
    await expect.poll(() => page.getByRole("checkbox", { name: "Rig moving (Drilling)" }).isChecked()).toBe(true);
  });
});

describe("axe on the staff pages", () => {
  const paths = [
    "/staff/services",
    "/staff/services/new",
    "/staff/services/1/edit",
    "/staff/services/1/delete",
    "/staff/service-areas",
    "/staff/service-areas/new",
    "/staff/api-tokens",
    "/staff/pickers",
  ];

  it.each(paths)("%s has no violations with JavaScript on", async (path) => {
    const page = await open("js");
    await signInAsStaff(page, path);
    await waitForHydration(page);
    await expectNoAxeViolations(page);
  });

  it("has no violations with JavaScript on while errors are shown", async () => {
    const page = await open("js");
    await signInAsStaff(page, "/staff/services/new");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Add service" }).click();
    await errorSummary(page).waitFor();
    await expectNoAxeViolations(page);
  });

  async function openWithoutAppScripts(path: string): Promise<Page> {
    const { context, page } = await openPageWithoutAppScripts(browser());
    onTestFinished(() => context.close());
    await signInAsStaff(page, path);
    return page;
  }

  it.each(paths)("%s has no violations without the app's scripts", async (path) => {
    await expectNoAxeViolations(await openWithoutAppScripts(path));
  });

  it("has no violations without the app's scripts while errors are shown", async () => {
    const page = await openWithoutAppScripts("/staff/service-areas/new");
    await page.getByRole("button", { name: "Add service area" }).click();
    await errorSummary(page).waitFor();
    await expectNoAxeViolations(page);
    await page.goto("/staff/services/1/delete");
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await errorSummary(page).waitFor();
    await expectNoAxeViolations(page);
  });
});

describe("the staff pages' server HTML", () => {
  it("passes the W3C Nu validator", async () => {
    const page = await open("no-js");
    await signInAsStaff(page, "/staff");
    const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join("; ");
    const paths = ["/staff/services", "/staff/services/1/edit", "/staff/service-areas/new", "/staff/api-tokens"];
    const documents: Record<string, string> = {};
    for (const path of [...paths, "/staff/pickers"]) {
      documents[path] = await (await fetch(`${baseURL()}${path}`, { headers: { cookie } })).text();
    }
    // The pickers as re-rendered after a submission without JavaScript, and a form with its errors.
    const post = (path: string, body: string) =>
      fetch(`${baseURL()}${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: baseURL() },
        body,
      }).then((response) => response.text());
    documents["pickers-submitted"] = await post("/staff/pickers", "serviceAreaProvinces=1&serviceGroups=1");
    documents["service-errors"] = await post("/staff/services/new", "name=&parent=");
    expect(Object.values(documents).every((html) => html.startsWith("<!DOCTYPE html>"))).toBe(true);
    expect(await validateHtml(documents)).toEqual([]);
  });
});
