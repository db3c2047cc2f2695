import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import type { ServiceAreaCheckboxData } from "~/catalogue/pickers/picker-selection";
import { ServiceAreaPicker } from "~/catalogue/pickers/service-area-picker";
import type { FieldErrorLink } from "~/forms/error-summary";
import { SelectField, TextField } from "~/forms/field";
import { summaryLinks } from "~/forms/form-errors";
import { useHydrated } from "~/forms/use-hydrated";
import { STATE_CONTROLS, stateControlFor } from "./registration-data";
import type { RegistrationFormOptions } from "./registration-form.server";

type Field = FieldMetadata<string | undefined>;

/** The company general information fields every registration form has (spec section 5). */
export type GeneralInformationFieldName =
  | "name"
  | "address"
  | "city"
  | "country"
  | "state"
  | "stateCA"
  | "stateUS"
  | "stateOther"
  | "postal_zip"
  | "phone"
  | "fax"
  | "email";
export type GeneralInformationFields = Record<GeneralInformationFieldName, Field>;

/** The form values every registration form shares, as the browser sends them. */
export type CommonRegistrationValues = Record<
  GeneralInformationFieldName | "reg_access_token" | "primary_industry",
  string
> & { serviceAreas: string[] };

/** The general fields' errors as summary links, the state's error at the control in use. */
export function generalInformationSummaryLinks(fields: GeneralInformationFields): FieldErrorLink[] {
  const activeState = stateControlFor(fields.country.value);
  return [
    ...summaryLinks([fields.name, fields.address, fields.city, fields.country]),
    ...(fields.state.errors ?? []).map((message) => ({ fieldId: fields[activeState].id, message })),
    ...summaryLinks([fields.postal_zip, fields.phone, fields.fax, fields.email]),
  ];
}

/** Section 1.0 General of the buyer, consultant and seller forms. */
export function GeneralInformationSection({
  id,
  fields,
  options,
}: {
  id: string;
  fields: GeneralInformationFields;
  options: RegistrationFormOptions;
}) {
  // With JavaScript only the state control of the chosen country shows; the server renders all three.
  const hydrated = useHydrated();
  const activeState = stateControlFor(fields.country.value);
  const stateErrors = fields.state.errors;
  return (
    <section className="form-section" aria-labelledby={`${id}-general`}>
      <h2 id={`${id}-general`}>1.0 General</h2>
      <TextField field={fields.name} label="Organization Name" inputProps={{ autoComplete: "organization" }} />
      <TextField field={fields.address} label="Address" inputProps={{ autoComplete: "address-line1" }} />
      <TextField field={fields.city} label="City" inputProps={{ autoComplete: "address-level2" }} />
      <SelectField field={fields.country} label="Country" options={options.countries} />
      <StateControls hydrated={hydrated}>
        <div hidden={hydrated && activeState !== STATE_CONTROLS.CA}>
          <SelectField
            field={fields.stateCA}
            label={hydrated ? "Province" : "Province (Canada)"}
            options={options.provinces}
            errors={activeState === STATE_CONTROLS.CA ? stateErrors : undefined}
          />
        </div>
        <div hidden={hydrated && activeState !== STATE_CONTROLS.US}>
          <SelectField
            field={fields.stateUS}
            label={hydrated ? "State" : "State (United States)"}
            options={options.usStates}
            errors={activeState === STATE_CONTROLS.US ? stateErrors : undefined}
          />
        </div>
        <div hidden={hydrated && activeState !== STATE_CONTROLS.other}>
          <TextField
            field={fields.stateOther}
            label={hydrated ? "State / Province / Region" : "State / Province / Region (other countries)"}
            errors={activeState === STATE_CONTROLS.other ? stateErrors : undefined}
            inputProps={{ autoComplete: "address-level1" }}
          />
        </div>
      </StateControls>
      <TextField field={fields.postal_zip} label="Postal / Zip Code" inputProps={{ autoComplete: "postal-code" }} />
      <TextField field={fields.phone} label="Phone" type="tel" inputProps={{ autoComplete: "tel" }} />
      <TextField field={fields.fax} label="Fax (optional)" type="tel" />
      <TextField field={fields.email} label="Email" type="email" inputProps={{ autoComplete: "email" }} />
    </section>
  );
}

/**
 * The state controls in one group. Without JavaScript all three show, with a word on which one to
 * use; with it, only the one for the chosen country (the group stays, so nothing typed is remounted).
 */
function StateControls({ hydrated, children }: { hydrated: boolean; children: ReactNode }) {
  return (
    <fieldset className="fieldset" aria-describedby={hydrated ? undefined : "state-controls-hint"}>
      <legend className="fieldset__legend">State / Province</legend>
      {hydrated ? null : (
        <span className="field__hint" id="state-controls-hint">
          Fill in the one that matches your country: the province for Canada, the state for the United States, or the
          state, province or region for any other country.
        </span>
      )}
      {children}
    </fieldset>
  );
}

/** The primary industry and service area sections, numbered as the form has them. */
export function IndustryAndServiceAreaSections({
  id,
  numbers,
  industry,
  serviceAreas,
  options,
  serviceAreaData,
  selectedServiceAreas,
}: {
  id: string;
  numbers: [industry: string, serviceAreas: string];
  industry: Field;
  serviceAreas: FieldMetadata<string[] | undefined>;
  options: RegistrationFormOptions;
  serviceAreaData: ServiceAreaCheckboxData;
  selectedServiceAreas: readonly number[];
}) {
  return (
    <>
      <section className="form-section" aria-labelledby={`${id}-industry`}>
        <h2 id={`${id}-industry`}>{`${numbers[0]} Primary Industry`}</h2>
        <SelectField field={industry} label="Primary Industry" options={options.industries} />
      </section>
      <ServiceAreaPicker
        data={serviceAreaData}
        selected={selectedServiceAreas}
        errors={serviceAreas.errors}
        legend={<h2>{`${numbers[1]} Service Areas`}</h2>}
      />
    </>
  );
}
