/**
 * The checkbox pickers' tree and what a submitted picker selects. Shared by the browser (the
 * group boxes' state) and the server (expanding group boxes ticked without JavaScript).
 *
 * A node with children is a group: its box is "check all" for the leaves below it, ticked when all
 * of them are, indeterminate when some are. Only leaves are values: service areas (cities), and
 * services that have no sub-services.
 */
import { parseId } from "~/shared/ids";
import { counted, pluralOf } from "~/shared/words";

export type PickerNode = { id: number; label: string; children: PickerNode[] };

/** Form field names of one picker: the leaves ticked, the group boxes ticked, the groups rendered ticked. */
export type PickerFieldNames = { leaf: string; group: string; groupWasTicked: string };

export const SERVICE_AREA_FIELDS: PickerFieldNames = {
  leaf: "serviceAreas",
  group: "serviceAreaProvinces",
  groupWasTicked: "serviceAreaProvincesTicked",
};

export const SERVICE_FIELDS: PickerFieldNames = {
  leaf: "services",
  group: "serviceGroups",
  groupWasTicked: "serviceGroupsTicked",
};

export type GroupState = "all" | "some" | "none";

export function leafIds(node: PickerNode): number[] {
  return node.children.length === 0 ? [node.id] : node.children.flatMap(leafIds);
}

export function groupState(node: PickerNode, ticked: ReadonlySet<number>): GroupState {
  const leaves = leafIds(node);
  const count = leaves.filter((id) => ticked.has(id)).length;
  if (count === 0) return "none";
  return count === leaves.length ? "all" : "some";
}

function ids(values: FormDataEntryValue[]): Set<number> {
  const result = new Set<number>();
  for (const value of values) {
    const id = typeof value === "string" ? parseId(value) : undefined;
    if (id) result.add(id);
  }
  return result;
}

/**
 * The leaf ids a submitted picker selects. Without JavaScript a group box does not tick its
 * children in the page, so the server does it: a group box ticked now but not when the page was
 * rendered selects all its leaves; one unticked since rendering deselects them. Outer groups first,
 * so a change to an inner group wins. Unknown ids are dropped (say, a city deleted meanwhile).
 */
export function readPickerSelection(formData: FormData, tree: PickerNode[], names: PickerFieldNames): number[] {
  const selected = ids(formData.getAll(names.leaf));
  const groupsTicked = ids(formData.getAll(names.group));
  const groupsWereTicked = ids(formData.getAll(names.groupWasTicked));
  const visit = (node: PickerNode) => {
    if (node.children.length === 0) return;
    const now = groupsTicked.has(node.id);
    const before = groupsWereTicked.has(node.id);
    if (now !== before) {
      for (const leaf of leafIds(node)) {
        if (now) selected.add(leaf);
        else selected.delete(leaf);
      }
    }
    node.children.forEach(visit);
  };
  tree.forEach(visit);
  const known = new Set(tree.flatMap(leafIds));
  return [...selected].filter((id) => known.has(id)).sort((a, b) => a - b);
}

/** The labels of the selected leaves with their group path ("Grande Prairie, Alberta"), in tree order. */
export function selectedLabels(tree: PickerNode[], selected: readonly number[]): string[] {
  const wanted = new Set(selected);
  const labels: string[] = [];
  const visit = (node: PickerNode, path: string[]) => {
    if (node.children.length === 0) {
      if (wanted.has(node.id)) labels.push([node.label, ...path].join(", "));
      return;
    }
    for (const child of node.children) visit(child, [node.label, ...path]);
  };
  for (const node of tree) visit(node, []);
  return labels;
}

/** The service-area picker's tree: provinces, each with its cities. */
export function serviceAreaTree(data: ServiceAreaCheckboxData): PickerNode[] {
  return data.serviceAreaProvinces.map((province) => ({
    id: province.id,
    label: province.name,
    children: data.serviceAreas
      .filter((area) => area.province === province.id)
      .map((area) => ({ id: area.id, label: area.city, children: [] })),
  }));
}

type CheckboxService = { id: number; name: string; children: CheckboxService[] };

/** The service picker's tree: top groups, sub-services, sub-sub-services. */
export function serviceTreeNodes(data: ServiceCheckboxData): PickerNode[] {
  const node = (service: CheckboxService): PickerNode => ({
    id: service.id,
    label: service.name,
    children: service.children.map(node),
  });
  return data.services.map(node);
}

/** The answers of GET /api/service_area_checkboxes and GET /api/service_checkboxes. */
export type ServiceAreaCheckboxData = {
  serviceAreas: { id: number; city: string; province: number }[];
  serviceAreaProvinces: { id: number; code: string; name: string }[];
};
export type ServiceCheckboxData = { services: CheckboxService[] };

/** A leaf's noun, singular and plural: ["city", "cities"]. */
export type LeafNouns = readonly [one: string, other: string];

/** What a group's change announces: "Calgary: all 3 cities selected.", "…: 1 of 3 cities selected.". */
export function groupAnnouncement(
  label: string,
  state: GroupState,
  ticked: number,
  total: number,
  [one, other]: LeafNouns,
): string {
  if (state === "all")
    return `${label}: ${pluralOf(total, `its one ${one}`, `all ${counted(total, one, other)}`)} selected.`;
  if (state === "none") return `${label}: no ${other} selected.`;
  return `${label}: ${ticked} of ${counted(total, one, other)} selected.`;
}
