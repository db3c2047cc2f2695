// The evaluation page's control ids, shared by its action (to point a message at its field) and the page.

export const scoreFieldId = (organizationId: number, criterionId: number) => `score-${organizationId}-${criterionId}`;
export const commentFieldId = (organizationId: number, criterionId: number) =>
  `comment-${organizationId}-${criterionId}`;
export const reasonFieldId = (organizationId: number) => `unacceptable-reason-${organizationId}`;
