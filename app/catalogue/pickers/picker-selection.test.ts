import { describe, expect, it } from "vitest";
import {
  groupState,
  type PickerNode,
  readPickerSelection,
  SERVICE_FIELDS,
  selectedLabels,
  serviceAreaTree,
} from "./picker-selection";

const leaf = (id: number, label: string): PickerNode => ({ id, label, children: [] });
// Drilling (1) → Drilling rigs (2) → Conventional (3), Walking (4); Drill bits (5). Seismic (6) is a lone top group.
const tree: PickerNode[] = [
  {
    id: 1,
    label: "Drilling",
    children: [
      { id: 2, label: "Drilling rigs", children: [leaf(3, "Conventional"), leaf(4, "Walking")] },
      leaf(5, "Bits"),
    ],
  },
  leaf(6, "Seismic"),
];

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};
const read = (entries: [string, string][]) => readPickerSelection(form(entries), tree, SERVICE_FIELDS);

describe("readPickerSelection", () => {
  it("keeps the leaves ticked and drops unknown or malformed ids", () => {
    expect(
      read([
        ["services", "5"],
        ["services", "6"],
        ["services", "99"],
        ["services", "x"],
        ["services", "-1"],
      ]),
    ).toEqual([5, 6]);
  });

  it("selects every leaf below a group box ticked without JavaScript", () => {
    expect(read([["serviceGroups", "1"]])).toEqual([3, 4, 5]);
    expect(
      read([
        ["serviceGroups", "2"],
        ["services", "6"],
      ]),
    ).toEqual([3, 4, 6]);
  });

  it("deselects the leaves of a group box unticked since the page was rendered", () => {
    expect(
      read([
        ["serviceGroupsTicked", "1"],
        ["serviceGroupsTicked", "2"],
        ["services", "3"],
        ["services", "4"],
        ["services", "5"],
      ]),
    ).toEqual([]);
  });

  it("honours a leaf unticked under a group box that stayed ticked", () => {
    expect(
      read([
        ["serviceGroups", "1"],
        ["serviceGroupsTicked", "1"],
        ["services", "3"],
        ["services", "5"],
      ]),
    ).toEqual([3, 5]);
  });

  it("lets an inner group change win over its outer group", () => {
    expect(
      read([
        ["serviceGroups", "1"],
        ["serviceGroupsTicked", "2"],
      ]),
    ).toEqual([5]);
  });
});

describe("groupState", () => {
  it("is all, some or none of the leaves below", () => {
    const drilling = tree[0] as PickerNode;
    expect(groupState(drilling, new Set())).toBe("none");
    expect(groupState(drilling, new Set([3]))).toBe("some");
    expect(groupState(drilling, new Set([3, 4, 5]))).toBe("all");
  });
});

describe("service area tree", () => {
  it("groups cities under their provinces and labels selections with their group", () => {
    const areas = serviceAreaTree({
      serviceAreaProvinces: [{ id: 1, code: "AB", name: "Alberta" }],
      serviceAreas: [
        { id: 10, city: "Grande Prairie", province: 1 },
        { id: 11, city: "Drayton Valley", province: 1 },
      ],
    });
    expect(selectedLabels(areas, [11])).toEqual(["Drayton Valley, Alberta"]);
    expect(selectedLabels(tree, [3])).toEqual(["Conventional, Drilling rigs, Drilling"]);
  });
});
