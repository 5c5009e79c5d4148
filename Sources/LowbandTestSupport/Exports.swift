// Test targets reach the seeded fixtures through the test-support module.
@_exported public import LowbandFixtures
