import { z } from "zod";

// What the catalogue calls answer (spec section 7 field names): the API's routes build their answers
// to these schemas, and the API description (app/api-description/) publishes them.

export const serviceView = z.object({
  id: z.int(),
  name: z.string(),
  cost_account_code: z.string().nullable(),
  /** The parent service's id; null for a top group. */
  parent: z.int().nullable(),
});
export type ServiceView = z.infer<typeof serviceView>;

/** A service with its sub-services, each with theirs: the service checkboxes. */
export type CheckboxService = ServiceView & { children: CheckboxService[] };
export const checkboxService: z.ZodType<CheckboxService> = z.object({
  ...serviceView.shape,
  get children() {
    return z.array(checkboxService);
  },
});

export const serviceAreaView = z.object({
  id: z.int(),
  city: z.string(),
  /** The province's id. */
  province: z.int(),
  /** ISO 3166 code: always CA. */
  country: z.string(),
});
export type ServiceAreaView = z.infer<typeof serviceAreaView>;

export const provinceView = z.object({ id: z.int(), code: z.string(), name: z.string() });
export type ProvinceView = z.infer<typeof provinceView>;

export const serviceListAnswer = z.object({ services: z.array(serviceView) });
export const serviceAnswer = z.object({ service: serviceView });
export const serviceAreaListAnswer = z.object({ serviceAreas: z.array(serviceAreaView) });
export const serviceAreaAnswer = z.object({ serviceArea: serviceAreaView });
export const serviceCheckboxesAnswer = z.object({ services: z.array(checkboxService) });
export const serviceAreaCheckboxesAnswer = z.object({
  serviceAreas: z.array(serviceAreaView.pick({ id: true, city: true, province: true })),
  serviceAreaProvinces: z.array(provinceView),
});
