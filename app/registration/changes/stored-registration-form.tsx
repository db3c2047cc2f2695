import { ServiceAreaPicker } from "~/catalogue/pickers/service-area-picker";
import { ServicePicker } from "~/catalogue/pickers/service-picker";
import { Role } from "~/shared/roles";
import { BuyerRegistrationForm } from "../buyer-form/buyer-registration-form";
import { SellerRegistrationForm } from "../seller-form/seller-registration-form";
import type { EditFormAnswer, EditFormData } from "./registration-edit.server";

/**
 * The registration form of a stored registration's type, pre-filled: for the applicant's changes
 * and for the organization's profile. No card fields: the card on file stays (or is replaced on its
 * own page).
 */
export function StoredRegistrationForm({
  id,
  form,
  answer,
  purpose,
}: {
  id: string;
  form: EditFormData;
  answer?: EditFormAnswer;
  purpose: "changes" | "profile";
}) {
  if (!form.serviceAreas || (form.organizationType === Role.Seller && !form.serviceCategories)) {
    // The form appears only once its lists have loaded; the pickers say which did not.
    return (
      <>
        {form.serviceAreas ? null : <ServiceAreaPicker data={null} selected={[]} />}
        {form.organizationType === Role.Seller && !form.serviceCategories ? (
          <ServicePicker data={null} selected={[]} />
        ) : null}
      </>
    );
  }
  const submitLabel = purpose === "changes" ? "Resubmit Registration" : "Save changes";
  if (form.organizationType === Role.Seller && form.serviceCategories) {
    return (
      <SellerRegistrationForm
        id={id}
        accessToken="stored"
        options={form.options}
        serviceAreas={form.serviceAreas}
        serviceCategories={form.serviceCategories}
        savedCard={purpose === "changes" ? form.savedCard : null}
        defaultValue={form.values}
        keptDates={form.keptDates}
        showFeedback={purpose === "changes"}
        submitLabel={submitLabel}
        today={form.today}
        currentYear={form.currentYear}
        lastResult={answer?.result}
        selectedServiceAreas={answer?.serviceAreas ?? form.selectedServiceAreas}
        selectedServices={answer?.services ?? form.selectedServices}
      />
    );
  }
  return (
    <BuyerRegistrationForm
      id={id}
      accessToken="stored"
      options={form.options}
      serviceAreas={form.serviceAreas}
      defaultValue={form.values}
      submitLabel={submitLabel}
      lastResult={answer?.result}
      selectedServiceAreas={answer?.serviceAreas ?? form.selectedServiceAreas}
    />
  );
}
