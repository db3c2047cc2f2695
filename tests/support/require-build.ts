import { requireBuild } from "./test-app";

// Global setup of the integration project: without a production build every integration test would
// fail one by one; this fails the run once, saying how to make it run.
export default function setup() {
  requireBuild();
}
