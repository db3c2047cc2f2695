/**
 * The starting catalogue loaded into an empty database: what an upstream oil and gas operator in
 * Western Canada buys, as top groups, sub-services and a few sub-sub-services (never deeper), and
 * the oil-patch towns sellers work out of. Staff maintain it afterwards; start never reloads it.
 * Cost account codes follow a common operator chart-of-accounts style (group.sub.detail).
 */
export type DemoService = {
  name: string;
  costAccountCode: string;
  children?: DemoService[];
};

export type DemoServiceArea = { city: string; province: "AB" | "BC" | "SK" };

const leaf = (costAccountCode: string, name: string): DemoService => ({ name, costAccountCode });

export const demoServices: DemoService[] = [
  {
    name: "Drilling",
    costAccountCode: "100",
    children: [
      {
        name: "Drilling rigs",
        costAccountCode: "100.10",
        children: [leaf("100.10.01", "Conventional rigs"), leaf("100.10.02", "Pad and walking rigs")],
      },
      leaf("100.20", "Directional drilling and MWD"),
      leaf("100.30", "Drilling fluids"),
      leaf("100.40", "Drill bits"),
      leaf("100.50", "Surface casing and conductor setting"),
      leaf("100.60", "Rig moving"),
    ],
  },
  {
    name: "Completions",
    costAccountCode: "200",
    children: [
      {
        name: "Hydraulic fracturing",
        costAccountCode: "200.10",
        children: [leaf("200.10.01", "Frac fleets"), leaf("200.10.02", "Proppant supply and hauling")],
      },
      leaf("200.20", "Cementing"),
      leaf("200.30", "Coiled tubing"),
      leaf("200.40", "Wireline and perforating"),
      leaf("200.50", "Flowback and well testing"),
    ],
  },
  {
    name: "Well servicing",
    costAccountCode: "300",
    children: [
      leaf("300.10", "Service rigs"),
      leaf("300.20", "Snubbing"),
      leaf("300.30", "Slickline"),
      leaf("300.40", "Artificial lift installation"),
      leaf("300.50", "Well abandonment"),
    ],
  },
  {
    name: "Fluid hauling and trucking",
    costAccountCode: "400",
    children: [
      {
        name: "Fluid hauling",
        costAccountCode: "400.10",
        children: [
          leaf("400.10.01", "Produced water hauling"),
          leaf("400.10.02", "Crude oil hauling"),
          leaf("400.10.03", "Vacuum trucks"),
        ],
      },
      leaf("400.20", "Hot oiling"),
      leaf("400.30", "Picker and winch trucks"),
      leaf("400.40", "Bed trucks and heavy haul"),
    ],
  },
  {
    name: "Equipment rentals",
    costAccountCode: "500",
    children: [
      leaf("500.10", "Surface rental equipment"),
      leaf("500.20", "Downhole tool rentals"),
      leaf("500.30", "Tanks and storage"),
      leaf("500.40", "Light towers and generators"),
      leaf("500.50", "Wellsite trailers"),
    ],
  },
  {
    name: "Environmental and reclamation",
    costAccountCode: "600",
    children: [
      leaf("600.10", "Environmental site assessment"),
      leaf("600.20", "Spill response and remediation"),
      leaf("600.30", "Reclamation and revegetation"),
      leaf("600.40", "Waste management and disposal"),
    ],
  },
  {
    name: "Pipeline and facilities construction",
    costAccountCode: "700",
    children: [
      {
        name: "Pipeline construction",
        costAccountCode: "700.10",
        children: [leaf("700.10.01", "Gathering lines"), leaf("700.10.02", "Horizontal directional drilling")],
      },
      leaf("700.20", "Facility construction"),
      leaf("700.30", "Lease and road construction"),
      leaf("700.40", "Electrical and instrumentation"),
    ],
  },
  {
    name: "Inspection and testing",
    costAccountCode: "800",
    children: [
      leaf("800.10", "Non-destructive testing"),
      leaf("800.20", "Pipeline integrity inspection"),
      leaf("800.30", "Pressure vessel inspection"),
      leaf("800.40", "Hydrostatic testing"),
    ],
  },
  {
    name: "Safety services",
    costAccountCode: "900",
    children: [
      leaf("900.10", "Safety supervision"),
      leaf("900.20", "Gas detection and H2S services"),
      leaf("900.30", "Medical and first aid services"),
      leaf("900.40", "Safety training"),
    ],
  },
  {
    name: "Camp and catering",
    costAccountCode: "950",
    children: [leaf("950.10", "Workforce camps"), leaf("950.20", "Catering"), leaf("950.30", "Janitorial services")],
  },
];

export const demoServiceAreas: DemoServiceArea[] = [
  { city: "Calgary", province: "AB" },
  { city: "Edmonton", province: "AB" },
  { city: "Grande Prairie", province: "AB" },
  { city: "Fort McMurray", province: "AB" },
  { city: "Red Deer", province: "AB" },
  { city: "Lloydminster", province: "AB" },
  { city: "Drayton Valley", province: "AB" },
  { city: "Whitecourt", province: "AB" },
  { city: "Brooks", province: "AB" },
  { city: "Medicine Hat", province: "AB" },
  { city: "Slave Lake", province: "AB" },
  { city: "Bonnyville", province: "AB" },
  { city: "Cold Lake", province: "AB" },
  { city: "Peace River", province: "AB" },
  { city: "Valleyview", province: "AB" },
  { city: "Fox Creek", province: "AB" },
  { city: "Rocky Mountain House", province: "AB" },
  { city: "Hinton", province: "AB" },
  { city: "Edson", province: "AB" },
  { city: "Leduc", province: "AB" },
  { city: "Nisku", province: "AB" },
  { city: "Olds", province: "AB" },
  { city: "Stettler", province: "AB" },
  { city: "High Level", province: "AB" },
  { city: "Fort St. John", province: "BC" },
  { city: "Dawson Creek", province: "BC" },
  { city: "Fort Nelson", province: "BC" },
  { city: "Chetwynd", province: "BC" },
  { city: "Tumbler Ridge", province: "BC" },
  { city: "Prince George", province: "BC" },
  { city: "Estevan", province: "SK" },
  { city: "Weyburn", province: "SK" },
  { city: "Kindersley", province: "SK" },
  { city: "Swift Current", province: "SK" },
  { city: "Lloydminster", province: "SK" },
  { city: "Carlyle", province: "SK" },
  { city: "Oxbow", province: "SK" },
  { city: "Regina", province: "SK" },
  { city: "Saskatoon", province: "SK" },
];
