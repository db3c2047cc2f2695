/** Certification names offered for a seller's key people, in spec order. */
export const certificationOptions: string[] = [
  "Safety Management and Regulatory Awareness for Wellsite Supervision",
  "Second Line Supervisor's Well Control",
  "Well Service Blowout Prevention",
  "Detection and Control of Flammable Substances",
  "WHMIS",
  "Standard First Aid",
  "TDG",
  "H2S Alive",
];
