// The tenancy module's door: what other modules, the front doors and the composition root may use of it.
export { addUser, createOrganisation, createWorkspace, issueApiKey, issueSapiClient, registerCompany, systemMetadata } from './tenancy.ts';
