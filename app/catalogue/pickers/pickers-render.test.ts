import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ServiceAreaPicker } from "./service-area-picker";
import { ServicePicker } from "./service-picker";

// The server HTML of the pickers: what a browser without JavaScript gets.

const areas = {
  serviceAreaProvinces: [{ id: 1, code: "AB", name: "Alberta" }],
  serviceAreas: [
    { id: 10, city: "Grande Prairie", province: 1 },
    { id: 11, city: "Drayton Valley", province: 1 },
  ],
};

describe("pickers", () => {
  it("show the spec's messages in the 'Error!' alert when their data did not load", () => {
    const areaHtml = renderToStaticMarkup(createElement(ServiceAreaPicker, { data: null, selected: [] }));
    expect(areaHtml).toContain('role="alert"');
    expect(areaHtml).toContain("Error!");
    expect(areaHtml).toContain("Service areas unavailable.");
    expect(areaHtml).not.toContain("checkbox");
    const serviceHtml = renderToStaticMarkup(createElement(ServicePicker, { data: null, selected: [] }));
    expect(serviceHtml).toContain("Error!");
    expect(serviceHtml).toContain("Services unavailable.");
  });

  it("render a fieldset per province and names that include the group", () => {
    const html = renderToStaticMarkup(createElement(ServiceAreaPicker, { data: areas, selected: [10] }));
    expect(html).toContain('<legend class="checkbox-group__legend">Alberta</legend>');
    expect(html).toContain('Grande Prairie<span class="visually-hidden"> (Alberta)</span>');
    expect(html).toMatch(/<input[^>]*name="serviceAreas"[^>]*checked=""[^>]*value="10"/);
    expect(html).not.toMatch(/<input[^>]*name="serviceAreaProvinces"[^>]*checked/);
    // Not every city is ticked, so the province was not rendered ticked.
    expect(html).not.toContain('name="serviceAreaProvincesTicked"');
  });

  it("render the province box ticked, and note it, when all its cities are", () => {
    const html = renderToStaticMarkup(createElement(ServiceAreaPicker, { data: areas, selected: [10, 11] }));
    expect(html).toMatch(/<input[^>]*name="serviceAreaProvinces"[^>]*checked=""[^>]*value="1"/);
    expect(html).toContain('<input type="hidden" name="serviceAreaProvincesTicked" value="1"/>');
  });

  it("show an error at the picker and tie it to the group", () => {
    const html = renderToStaticMarkup(
      createElement(ServicePicker, {
        data: { services: [{ id: 1, name: "Drilling", children: [{ id: 2, name: "Rig moving", children: [] }] }] },
        selected: [],
        errors: ["Please select at least one service category."],
      }),
    );
    expect(html).toContain('aria-describedby="services-hint services-error"');
    expect(html).toContain('id="services-error"');
    expect(html).toContain("Please select at least one service category.");
    expect(html).toContain("Check all Drilling");
  });
});
