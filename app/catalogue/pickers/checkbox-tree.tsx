import { type ReactNode, useState } from "react";
import { FieldError } from "~/forms/text-input";
import {
  type GroupState,
  groupAnnouncement,
  groupState,
  type LeafNouns,
  leafIds,
  type PickerFieldNames,
  type PickerNode,
} from "./picker-selection";

/** The first box of a picker: where the error summary's link takes the user. */
export function firstCheckboxId(id: string, tree: PickerNode[]): string {
  const first = tree[0];
  if (!first) return id;
  return first.children.length ? `${id}-group-${first.id}` : `${id}-${first.id}`;
}

/**
 * Checkboxes in groups (fieldset and legend per group), each group with a "check all" box that
 * ticks itself when all its leaves are ticked and is indeterminate when some are. Works as a plain
 * form without JavaScript: the group boxes and a hidden note of which were rendered ticked go to
 * the server, which expands them (readPickerSelection). With JavaScript the boxes update at once
 * and a polite live region announces each group whose state changed.
 */
export function CheckboxTreePicker({
  id,
  legend,
  hint,
  tree,
  names,
  selected,
  errors,
  leafNoun,
}: {
  id: string;
  legend: ReactNode;
  hint?: ReactNode;
  tree: PickerNode[];
  names: PickerFieldNames;
  selected: readonly number[];
  errors?: string[];
  /** The noun for announcements, singular and plural: ["city", "cities"]. */
  leafNoun: LeafNouns;
}) {
  const selectedKey = selected.join(",");
  const [shownSelection, setShownSelection] = useState(selectedKey);
  const [ticked, setTicked] = useState<ReadonlySet<number>>(() => new Set(selected));
  const [announcement, setAnnouncement] = useState("");
  // A new server answer (another submission) replaces what is ticked.
  if (shownSelection !== selectedKey) {
    setShownSelection(selectedKey);
    setTicked(new Set(selected));
  }

  const describe = (node: PickerNode, state: GroupState, set: ReadonlySet<number>) => {
    const leaves = leafIds(node);
    const ticked = leaves.filter((leaf) => set.has(leaf)).length;
    return groupAnnouncement(node.label, state, ticked, leaves.length, leafNoun);
  };

  /** Sets the leaves, then announces each group (innermost first) on the path whose state changed. */
  const change = (leaves: number[], on: boolean, path: PickerNode[]) => {
    const next = new Set(ticked);
    for (const leaf of leaves) {
      if (on) next.add(leaf);
      else next.delete(leaf);
    }
    const messages = [...path]
      .reverse()
      .filter((group) => groupState(group, ticked) !== groupState(group, next))
      .map((group) => describe(group, groupState(group, next), next));
    setTicked(next);
    setAnnouncement(messages.join(" "));
  };

  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(" ") || undefined;

  const renderNode = (node: PickerNode, path: PickerNode[]): ReactNode => {
    const groupNames = path.map((group) => group.label);
    if (node.children.length === 0) {
      const inputId = `${id}-${node.id}`;
      return (
        <li key={`leaf-${node.id}`} className="checkbox">
          <input
            type="checkbox"
            className="checkbox__input"
            id={inputId}
            name={names.leaf}
            value={node.id}
            checked={ticked.has(node.id)}
            onChange={(event) => change([node.id], event.currentTarget.checked, path)}
          />
          <label className="checkbox__label" htmlFor={inputId}>
            {node.label}
            {groupNames.length ? (
              <span className="visually-hidden"> ({[...groupNames].reverse().join(", ")})</span>
            ) : null}
          </label>
        </li>
      );
    }
    const state = groupState(node, ticked);
    const inputId = `${id}-group-${node.id}`;
    const outer = [...groupNames].reverse();
    return (
      <li key={`group-${node.id}`}>
        <fieldset className="checkbox-group">
          <legend className="checkbox-group__legend">{node.label}</legend>
          <div className="checkbox checkbox--all">
            <input
              type="checkbox"
              className="checkbox__input"
              id={inputId}
              name={names.group}
              value={node.id}
              checked={state === "all"}
              ref={(element) => {
                if (element) element.indeterminate = state === "some";
              }}
              onChange={(event) => change(leafIds(node), event.currentTarget.checked, [...path, node])}
            />
            <label className="checkbox__label" htmlFor={inputId}>
              Check all {node.label}
              {outer.length ? <span className="visually-hidden"> ({outer.join(", ")})</span> : null}
            </label>
            {state === "all" ? <input type="hidden" name={names.groupWasTicked} value={node.id} /> : null}
          </div>
          <ul className="checkbox-list">{node.children.map((child) => renderNode(child, [...path, node]))}</ul>
        </fieldset>
      </li>
    );
  };

  return (
    <fieldset
      className={errors?.length ? "fieldset picker field--error" : "fieldset picker"}
      id={id}
      aria-describedby={describedBy}
    >
      <legend className="fieldset__legend">{legend}</legend>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} errors={errors} />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <ul className="checkbox-list checkbox-list--groups">{tree.map((node) => renderNode(node, []))}</ul>
    </fieldset>
  );
}
