/**
 * What the demo projects' work is made of: the frameworks a compliance consultancy works to (SOC 2
 * Trust Services Criteria, PCI DSS v4.0, the HIPAA Security Rule, ISO/IEC 27001:2022 Annex A) and the
 * workstreams of penetration tests and advisory engagements. Seed data only (seed-projects.ts builds
 * tasks, controls and points of focus from it). Over 400 lines because it is data: one literal
 * catalogue per framework, with little code beside it to split off.
 */

export interface CatalogueSection {
  /** The criterion, requirement or workstream: the control's ID and the prefix of its tasks' IDs. */
  name: string;
  title: string;
  /** 1 to 4: the criterion's points of focus (PCI: its sub-requirements; HIPAA: its implementation specifications). */
  pointsOfFocus: string[];
  /** What the tasks ask for; each is combined with the framework's task verbs. */
  work: string[];
}

export interface Catalogue {
  /** Whether the sections become the project's controls (workstreams of a penetration test do not). */
  controls: boolean;
  /** Task titles are `${verb}${work}`; a single '' keeps the work items as the titles. */
  verbs: string[];
  sections: CatalogueSection[];
  /** Titles of subtasks (steps of a task), in the order they happen. */
  steps: string[];
}

export type CatalogueName = 'soc2' | 'pci' | 'hipaa' | 'iso27001' | 'pentest' | 'vendor' | 'continuity' | 'cloud';

const s = (name: string, title: string, pointsOfFocus: string[], work: string[]): CatalogueSection => ({
  name,
  title,
  pointsOfFocus,
  work,
});

const EVIDENCE_STEPS = [
  'Obtain the population for the period',
  'Select the sample',
  'Upload the evidence for the sample',
  'Follow up on exceptions',
  'Reviewer sign-off',
];

const SOC2: Catalogue = {
  controls: true,
  verbs: ['Request evidence: ', 'Walkthrough: ', 'Test a sample: '],
  steps: EVIDENCE_STEPS,
  sections: [
    s(
      'CC1.1',
      'The entity demonstrates a commitment to integrity and ethical values.',
      [
        'Sets the tone at the top',
        'Establishes standards of conduct',
        'Evaluates adherence to standards of conduct',
        'Addresses deviations in a timely manner',
      ],
      [
        'code of conduct and signed employee acknowledgements',
        'ethics hotline reports and their resolution',
        'disciplinary actions for conduct violations',
      ],
    ),
    s(
      'CC1.2',
      'The board of directors demonstrates independence from management and exercises oversight of internal control.',
      ['Establishes oversight responsibilities', 'Applies relevant expertise', 'Operates independently'],
      [
        'board charter and independence of its members',
        'board and audit committee meeting minutes',
        'board review of the security program',
      ],
    ),
    s(
      'CC1.3',
      'Management establishes structures, reporting lines, and appropriate authorities and responsibilities.',
      [
        'Considers all structures of the entity',
        'Establishes reporting lines',
        'Defines, assigns, and limits authorities and responsibilities',
      ],
      [
        'organization chart and security reporting lines',
        'job descriptions for security roles',
        'delegation of authority matrix',
      ],
    ),
    s(
      'CC1.4',
      'The entity demonstrates a commitment to attract, develop, and retain competent individuals.',
      [
        'Establishes policies and practices',
        'Evaluates competence and addresses shortcomings',
        'Attracts, develops, and retains individuals',
        'Plans and prepares for succession',
      ],
      ['background checks for new hires', 'security awareness training completion', 'annual performance reviews'],
    ),
    s(
      'CC1.5',
      'The entity holds individuals accountable for their internal control responsibilities.',
      [
        'Enforces accountability through structures, authorities, and responsibilities',
        'Establishes performance measures, incentives, and rewards',
        'Considers excessive pressures',
      ],
      [
        'security objectives in performance goals',
        'sanctions for policy violations',
        'review of workload and staffing pressures',
      ],
    ),
    s(
      'CC2.1',
      'The entity obtains or generates and uses relevant, quality information to support internal control.',
      [
        'Identifies information requirements',
        'Captures internal and external sources of data',
        'Processes relevant data into information',
      ],
      ['data flow diagrams of the system', 'inventory of log and data sources', 'quality checks on security reporting'],
    ),
    s(
      'CC2.2',
      'The entity internally communicates information, including objectives and responsibilities for internal control.',
      [
        'Communicates internal control information',
        'Communicates with the board of directors',
        'Provides separate communication lines',
        'Communicates responsibilities',
      ],
      [
        'security policies published to employees',
        'communication of control responsibilities',
        'whistleblower channel for employees',
      ],
    ),
    s(
      'CC2.3',
      'The entity communicates with external parties regarding matters affecting internal control.',
      [
        'Communicates to external parties',
        'Enables inbound communications',
        'Communicates objectives related to confidentiality',
      ],
      [
        'system description shared with customers',
        'customer contracts and security commitments',
        'external incident and breach notifications',
      ],
    ),
    s(
      'CC3.1',
      'The entity specifies objectives with sufficient clarity to enable the identification and assessment of risks.',
      [
        "Reflects management's choices",
        'Considers tolerances for risk',
        'Includes operations and financial performance goals',
      ],
      ['security objectives approved by management', 'risk tolerance statement', 'register of compliance obligations'],
    ),
    s(
      'CC3.2',
      'The entity identifies risks to the achievement of its objectives and analyzes risks to determine how they should be managed.',
      [
        'Includes entity, subsidiary, division, operating unit, and functional levels',
        'Analyzes internal and external factors',
        'Estimates significance of risks identified',
        'Determines how to respond to risks',
      ],
      ['annual risk assessment', 'risk register with owners and ratings', 'risk treatment plans'],
    ),
    s(
      'CC3.3',
      'The entity considers the potential for fraud in assessing risks to the achievement of objectives.',
      [
        'Considers various types of fraud',
        'Assesses incentives and pressures',
        'Assesses opportunities',
        'Assesses attitudes and rationalizations',
      ],
      ['fraud risk assessment', 'review of incentives and pressures', 'anti-fraud controls'],
    ),
    s(
      'CC3.4',
      'The entity identifies and assesses changes that could significantly impact the system of internal control.',
      [
        'Assesses changes in the external environment',
        'Assesses changes in the business model',
        'Assesses changes in leadership',
      ],
      ['impact assessment of business changes', 'review of new regulations', 'assessment of leadership changes'],
    ),
    s(
      'CC4.1',
      'The entity selects, develops, and performs ongoing and/or separate evaluations of the components of internal control.',
      [
        'Considers a mix of ongoing and separate evaluations',
        'Establishes baseline understanding',
        'Uses knowledgeable personnel',
        'Considers different types of ongoing and separate evaluations',
      ],
      ['internal audit plan', 'continuous control monitoring reports', 'penetration test reports'],
    ),
    s(
      'CC4.2',
      'The entity evaluates and communicates internal control deficiencies in a timely manner.',
      ['Assesses results', 'Communicates deficiencies', 'Monitors corrective action'],
      ['deficiency tracking log', 'management reporting of deficiencies', 'corrective action follow-up'],
    ),
    s(
      'CC5.1',
      'The entity selects and develops control activities that contribute to the mitigation of risks.',
      [
        'Integrates with risk assessment',
        'Considers entity-specific factors',
        'Determines relevant business processes',
        'Addresses segregation of duties',
      ],
      ['control matrix mapped to risks', 'segregation of duties analysis', 'key business process narratives'],
    ),
    s(
      'CC5.2',
      'The entity selects and develops general control activities over technology to support the achievement of objectives.',
      [
        'Determines dependency between the use of technology in business processes and technology general controls',
        'Establishes relevant technology infrastructure control activities',
        'Establishes relevant security management process control activities',
      ],
      [
        'inventory of technology general controls',
        'infrastructure hardening standards',
        'secure development lifecycle policy',
      ],
    ),
    s(
      'CC5.3',
      'The entity deploys control activities through policies that establish what is expected and procedures that put policies into action.',
      [
        "Establishes policies and procedures to support deployment of management's directives",
        'Establishes responsibility and accountability for executing policies and procedures',
        'Performs in a timely manner',
        'Takes corrective action',
      ],
      ['annual policy review and approval', 'register of policy exceptions', 'procedure owners and review dates'],
    ),
    s(
      'CC6.1',
      'The entity implements logical access security software, infrastructure, and architectures over protected information assets.',
      [
        'Identifies and manages the inventory of information assets',
        'Restricts logical access',
        'Identifies and authenticates users',
        'Manages credentials for infrastructure and software',
      ],
      [
        'MFA configuration for production systems',
        'inventory of in-scope information assets',
        'network segmentation diagrams',
      ],
    ),
    s(
      'CC6.2',
      'Prior to issuing system credentials and granting access, the entity registers and authorizes new internal and external users.',
      [
        'Controls access credentials to protected assets',
        'Removes access to protected assets when appropriate',
        'Reviews appropriateness of access credentials',
      ],
      [
        'access requests and approvals for new users',
        'terminated users and their access removal dates',
        'quarterly user access reviews',
      ],
    ),
    s(
      'CC6.3',
      'The entity authorizes, modifies, or removes access based on roles, responsibilities, and least privilege.',
      [
        'Creates or modifies access to protected information assets',
        'Removes access to protected information assets',
        'Uses role-based access controls',
        'Reviews access roles and rules',
      ],
      ['role-based access definitions', 'approvals of privileged access', 'access changes for role transfers'],
    ),
    s(
      'CC6.4',
      'The entity restricts physical access to facilities and protected information assets to authorized personnel.',
      ['Creates or modifies physical access', 'Removes physical access', 'Reviews physical access'],
      ['badge access lists for the office and data center', 'visitor logs', 'physical access reviews'],
    ),
    s(
      'CC6.5',
      'The entity discontinues logical and physical protections over physical assets only after the ability to read or recover data has been diminished.',
      ['Identifies data and software for disposal', 'Removes data and software from entity control'],
      ['media disposal certificates', 'data retention and disposal procedure', 'records of decommissioned assets'],
    ),
    s(
      'CC6.6',
      'The entity implements logical access security measures to protect against threats from sources outside its system boundaries.',
      [
        'Restricts access',
        'Protects identification and authentication credentials',
        'Requires additional authentication or credentials',
        'Implements boundary protection systems',
      ],
      [
        'firewall rules and their periodic review',
        'VPN and remote access configuration',
        'web application firewall settings',
      ],
    ),
    s(
      'CC6.7',
      'The entity restricts the transmission, movement, and removal of information to authorized internal and external users and processes.',
      [
        'Restricts the ability to perform transmission',
        'Uses encryption technologies or secure communication channels to protect data',
        'Protects removal media',
        'Protects mobile devices',
      ],
      [
        'encryption in transit settings',
        'encryption at rest for databases and backups',
        'mobile device management policy',
      ],
    ),
    s(
      'CC6.8',
      'The entity implements controls to prevent or detect and act upon the introduction of unauthorized or malicious software.',
      [
        'Restricts application and software installation',
        'Detects unauthorized changes to software and configuration parameters',
        'Uses a defined configuration management process',
        'Installs anti-malware software',
      ],
      ['anti-malware coverage report', 'software installation restrictions', 'file integrity monitoring alerts'],
    ),
    s(
      'CC7.1',
      'The entity uses detection and monitoring procedures to identify configuration changes and newly discovered vulnerabilities.',
      [
        'Uses defined configuration standards',
        'Monitors infrastructure and software',
        'Implements change-detection mechanisms',
        'Conducts vulnerability scans',
      ],
      [
        'configuration baselines and drift reports',
        'vulnerability scan results',
        'patching of critical vulnerabilities',
      ],
    ),
    s(
      'CC7.2',
      'The entity monitors system components and their operation for anomalies indicative of malicious acts, natural disasters, and errors.',
      [
        'Implements detection policies, procedures, and tools',
        'Designs detection measures',
        'Implements filters to analyze anomalies',
        'Monitors detection tools for effective operation',
      ],
      ['SIEM alert rules and tuning', 'intrusion detection alerts', 'log retention settings'],
    ),
    s(
      'CC7.3',
      'The entity evaluates security events to determine whether they could or have resulted in a failure to meet its objectives.',
      [
        'Responds to security incidents',
        'Communicates and reviews detected security events',
        'Develops and implements procedures to analyze security incidents',
      ],
      ['triage tickets for security events', 'incident classification criteria', 'security event review meetings'],
    ),
    s(
      'CC7.4',
      'The entity responds to identified security incidents by executing a defined incident response program.',
      [
        'Assigns roles and responsibilities',
        'Contains security incidents',
        'Mitigates ongoing security incidents',
        'Communicates remediation activities',
      ],
      ['incident response plan', 'incident tickets and post-mortems', 'incident response tabletop exercise'],
    ),
    s(
      'CC7.5',
      'The entity identifies, develops, and implements activities to recover from identified security incidents.',
      [
        'Restores the affected environment',
        'Communicates information about the event',
        'Determines root cause of the event',
        'Implements changes to prevent and detect recurrences',
      ],
      ['recovery procedures for security incidents', 'root cause analyses', 'lessons learned and follow-up actions'],
    ),
    s(
      'CC8.1',
      'The entity authorizes, designs, develops or acquires, configures, documents, tests, approves, and implements changes.',
      [
        'Manages changes throughout the system life cycle',
        'Authorizes changes',
        'Tests system changes',
        'Approves system changes',
      ],
      ['change tickets with approvals', 'code review and testing evidence', 'emergency change records'],
    ),
    s(
      'CC9.1',
      'The entity identifies, selects, and develops risk mitigation activities for risks arising from potential business disruptions.',
      [
        'Considers mitigation of risks of business disruption',
        'Considers the use of insurance to mitigate financial impact risks',
      ],
      ['business continuity plan', 'cyber insurance policy', 'disaster recovery test results'],
    ),
    s(
      'CC9.2',
      'The entity assesses and manages risks associated with vendors and business partners.',
      [
        'Establishes requirements for vendor and business partner engagements',
        'Assesses vendor and business partner risks',
        'Assigns responsibility and accountability for managing vendors',
        'Establishes communication protocols for vendors',
      ],
      [
        'vendor inventory with risk ratings',
        'vendor SOC reports and their review',
        'vendor contracts with security clauses',
      ],
    ),
  ],
};

const PCI: Catalogue = {
  controls: true,
  verbs: ['Collect evidence: ', 'Examine: ', 'Interview the owner: '],
  steps: [
    'Request the documentation',
    'Examine system configurations',
    'Record the testing procedure results',
    'QSA review',
  ],
  sections: [
    s(
      '1.1',
      'Processes and mechanisms for installing and maintaining network security controls are defined and understood.',
      [
        '1.1.1 Security policies and operational procedures are documented, kept up to date, in use, and known to all affected parties',
        '1.1.2 Roles and responsibilities for network security controls are documented, assigned, and understood',
      ],
      ['network security policy and procedures', 'roles and responsibilities for network security controls'],
    ),
    s(
      '1.2',
      'Network security controls (NSCs) are configured and maintained.',
      [
        '1.2.1 Configuration standards for NSC rulesets are defined, implemented, and maintained',
        '1.2.5 All services, protocols, and ports allowed are identified, approved, and have a defined business need',
        '1.2.7 Configurations of NSCs are reviewed at least once every six months',
      ],
      ['firewall and router rulesets', 'six-monthly ruleset review'],
    ),
    s(
      '2.2',
      'System components are configured and managed securely.',
      [
        '2.2.1 Configuration standards are developed, implemented, and maintained',
        '2.2.2 Vendor default accounts are managed',
        '2.2.4 Only necessary services, protocols, daemons, and functions are enabled',
      ],
      ['hardening standards for CDE systems', 'inventory of vendor default accounts'],
    ),
    s(
      '3.5',
      'Primary account number (PAN) is secured wherever it is stored.',
      [
        '3.5.1 PAN is rendered unreadable anywhere it is stored',
        '3.5.1.2 Disk-level encryption is used only to render PAN unreadable on removable media',
      ],
      ['PAN storage locations and masking', 'encryption of stored PAN'],
    ),
    s(
      '4.2',
      'PAN is protected with strong cryptography during transmission.',
      [
        '4.2.1 Strong cryptography and security protocols safeguard PAN during transmission over open, public networks',
        '4.2.1.1 An inventory of trusted keys and certificates is maintained',
      ],
      ['TLS configuration of payment endpoints', 'inventory of trusted keys and certificates'],
    ),
    s(
      '5.2',
      'Malicious software (malware) is prevented, or detected and addressed.',
      [
        '5.2.1 An anti-malware solution is deployed on all system components',
        '5.2.3 System components not at risk for malware are evaluated periodically',
      ],
      ['anti-malware deployment on CDE systems', 'evaluation of systems not at risk for malware'],
    ),
    s(
      '6.3',
      'Security vulnerabilities are identified and addressed.',
      [
        '6.3.1 Security vulnerabilities are identified and managed',
        '6.3.3 Critical or high security patches are installed within one month of release',
      ],
      ['vulnerability ranking process', 'installation records of critical patches'],
    ),
    s(
      '7.2',
      'Access to system components and data is appropriately defined and assigned.',
      [
        '7.2.1 An access control model is defined',
        '7.2.2 Access is assigned based on job classification and function',
        '7.2.4 User accounts and access privileges are reviewed at least once every six months',
      ],
      ['access control model for the CDE', 'six-monthly user access review'],
    ),
    s(
      '8.3',
      'Strong authentication for users and administrators is established and managed.',
      [
        '8.3.1 All user access to system components is authenticated',
        '8.3.6 Passwords meet the minimum level of complexity',
        '8.3.9 Passwords are changed at least once every 90 days when they are the only factor',
      ],
      ['authentication settings for CDE users', 'MFA for remote and administrative access'],
    ),
    s(
      '9.4',
      'Media with cardholder data is securely stored, accessed, distributed, and destroyed.',
      [
        '9.4.1 All media with cardholder data is physically secured',
        '9.4.6 Hard-copy materials with cardholder data are destroyed when no longer needed',
      ],
      ['media inventory and storage', 'destruction of hard-copy cardholder data'],
    ),
    s(
      '10.2',
      'Audit logs are implemented to support the detection of anomalies and suspicious activity.',
      [
        '10.2.1 Audit logs are enabled and active for all system components and cardholder data',
        '10.2.2 Audit logs record the required details for each auditable event',
      ],
      ['audit log settings on CDE systems', 'records of daily log review'],
    ),
    s(
      '11.3',
      'External and internal vulnerabilities are regularly identified, prioritized, and addressed.',
      [
        '11.3.1 Internal vulnerability scans are performed at least once every three months',
        '11.3.2 External vulnerability scans are performed at least once every three months by a PCI SSC Approved Scanning Vendor',
      ],
      ['quarterly internal vulnerability scans', 'quarterly ASV scan reports'],
    ),
    s(
      '12.1',
      'A comprehensive information security policy that governs and provides direction for protection of the entity’s information assets is known and current.',
      [
        '12.1.1 An overall information security policy is established, published, maintained, and disseminated',
        '12.1.2 The information security policy is reviewed at least once every 12 months',
      ],
      ['information security policy and its annual review', 'security awareness acknowledgements'],
    ),
  ],
};

const HIPAA: Catalogue = {
  controls: true,
  verbs: ['Request documentation: ', 'Review: ', 'Rate the risk: '],
  steps: [
    'Interview the process owner',
    'Review the documentation',
    'Record threats and vulnerabilities',
    'Rate likelihood and impact',
  ],
  sections: [
    s(
      '164.308(a)(1)',
      'Security management process',
      [
        'Risk analysis (required)',
        'Risk management (required)',
        'Sanction policy (required)',
        'Information system activity review (required)',
      ],
      ['risk analysis of systems holding ePHI', 'risk management plan'],
    ),
    s(
      '164.308(a)(2)',
      'Assigned security responsibility',
      ['Designation of a security official'],
      ['designation of the security official', 'duties of the security official'],
    ),
    s(
      '164.308(a)(3)',
      'Workforce security',
      [
        'Authorization and/or supervision (addressable)',
        'Workforce clearance procedure (addressable)',
        'Termination procedures (addressable)',
      ],
      ['workforce clearance procedure', 'termination checklist and access removal'],
    ),
    s(
      '164.308(a)(4)',
      'Information access management',
      [
        'Isolating health care clearinghouse functions (required)',
        'Access authorization (addressable)',
        'Access establishment and modification (addressable)',
      ],
      ['authorization procedure for access to ePHI', 'role matrix of the EHR'],
    ),
    s(
      '164.308(a)(5)',
      'Security awareness and training',
      [
        'Security reminders (addressable)',
        'Protection from malicious software (addressable)',
        'Log-in monitoring (addressable)',
        'Password management (addressable)',
      ],
      ['HIPAA training records', 'phishing simulation results'],
    ),
    s(
      '164.308(a)(6)',
      'Security incident procedures',
      ['Response and reporting (required)'],
      ['incident response procedure', 'security incident log for the last 12 months'],
    ),
    s(
      '164.308(a)(7)',
      'Contingency plan',
      [
        'Data backup plan (required)',
        'Disaster recovery plan (required)',
        'Emergency mode operation plan (required)',
        'Testing and revision procedures (addressable)',
      ],
      ['backup and restore test results', 'disaster recovery plan'],
    ),
    s(
      '164.308(a)(8)',
      'Evaluation',
      ['Periodic technical and nontechnical evaluation'],
      ['last security evaluation report', 'schedule of evaluations'],
    ),
    s(
      '164.308(b)(1)',
      'Business associate contracts and other arrangements',
      ['Written contract or other arrangement (required)'],
      ['business associate agreements', 'inventory of business associates'],
    ),
    s(
      '164.310(a)(1)',
      'Facility access controls',
      [
        'Contingency operations (addressable)',
        'Facility security plan (addressable)',
        'Access control and validation procedures (addressable)',
        'Maintenance records (addressable)',
      ],
      ['facility security plan', 'badge access reports for clinical areas'],
    ),
    s(
      '164.310(d)(1)',
      'Device and media controls',
      [
        'Disposal (required)',
        'Media re-use (required)',
        'Accountability (addressable)',
        'Data backup and storage (addressable)',
      ],
      ['inventory of devices and media', 'media disposal certificates'],
    ),
    s(
      '164.312(a)(1)',
      'Access control',
      [
        'Unique user identification (required)',
        'Emergency access procedure (required)',
        'Automatic logoff (addressable)',
        'Encryption and decryption (addressable)',
      ],
      ['unique user IDs in the EHR', 'emergency (break-glass) access procedure'],
    ),
    s(
      '164.312(b)',
      'Audit controls',
      ['Mechanisms that record and examine activity in systems that contain or use ePHI'],
      ['audit log configuration of the EHR', 'records of audit log review'],
    ),
    s(
      '164.312(c)(1)',
      'Integrity',
      ['Mechanism to authenticate electronic protected health information (addressable)'],
      ['integrity controls for ePHI databases', 'checksums on ePHI transfers'],
    ),
    s(
      '164.312(d)',
      'Person or entity authentication',
      ['Verification that a person or entity seeking access to ePHI is the one claimed'],
      ['MFA for remote access to ePHI', 'password policy settings'],
    ),
    s(
      '164.312(e)(1)',
      'Transmission security',
      ['Integrity controls (addressable)', 'Encryption (addressable)'],
      ['TLS settings of ePHI interfaces', 'secure email configuration'],
    ),
  ],
};

const ISO27001: Catalogue = {
  controls: true,
  verbs: ['Gap assessment: ', 'Interview: ', 'Recommend improvements: '],
  steps: ['Interview the control owner', 'Review the documentation', 'Rate the maturity'],
  sections: [
    s(
      'A.5.1',
      'Policies for information security',
      ['Policy defined and approved by management', 'Policy reviewed at planned intervals'],
      ['information security policy', 'topic-specific policies'],
    ),
    s(
      'A.5.9',
      'Inventory of information and other associated assets',
      ['Inventory developed and maintained', 'Owners assigned'],
      ['asset inventory', 'asset ownership'],
    ),
    s(
      'A.5.15',
      'Access control',
      ['Rules to control access established', 'Rules based on business and information security requirements'],
      ['access control policy', 'access review records'],
    ),
    s(
      'A.5.23',
      'Information security for use of cloud services',
      ['Processes for acquisition, use, management and exit from cloud services'],
      ['inventory of cloud services', 'exit plans for cloud services'],
    ),
    s(
      'A.5.24',
      'Information security incident management planning and preparation',
      ['Processes, roles and responsibilities defined and communicated'],
      ['incident management procedure', 'incident roles and contacts'],
    ),
    s(
      'A.5.30',
      'ICT readiness for business continuity',
      ['ICT readiness planned, implemented, maintained and tested'],
      ['ICT continuity plans', 'continuity test results'],
    ),
    s(
      'A.6.3',
      'Information security awareness, education and training',
      ['Awareness programme established', 'Training records kept'],
      ['awareness programme', 'training records'],
    ),
    s(
      'A.8.8',
      'Management of technical vulnerabilities',
      ['Information about vulnerabilities obtained', 'Exposure evaluated and measures taken'],
      ['vulnerability management procedure', 'patch compliance report'],
    ),
    s(
      'A.8.13',
      'Information backup',
      ['Backup copies maintained and regularly tested'],
      ['backup policy', 'restore test records'],
    ),
    s(
      'A.8.15',
      'Logging',
      ['Logs produced, stored, protected and analysed'],
      ['logging standard', 'protection of log information'],
    ),
    s(
      'A.8.32',
      'Change management',
      ['Changes subject to change management procedures'],
      ['change management procedure', 'sample of approved changes'],
    ),
  ],
};

const PENTEST: Catalogue = {
  controls: false,
  verbs: [''],
  steps: ['Run the tests', 'Document the findings', 'Peer review'],
  sections: [
    s(
      'SCOPE',
      'Scoping and rules of engagement',
      [],
      [
        'Confirm the in-scope IP ranges and domains',
        'Sign the rules of engagement',
        'Allow-list the tester source IPs',
        'Agree the testing window and contacts',
      ],
    ),
    s(
      'RECON',
      'Reconnaissance',
      [],
      [
        'Enumerate subdomains and DNS records',
        'Discover exposed services',
        'Collect leaked credentials from public sources',
      ],
    ),
    s(
      'EXT',
      'External network',
      [],
      [
        'Scan ports and services of perimeter hosts',
        'Test VPN gateway authentication',
        'Review TLS configurations',
        'Test exposed management interfaces',
      ],
    ),
    s(
      'WEB',
      'Web application and API',
      [],
      [
        'Test authentication and session handling',
        'Test authorization bypasses between tenants',
        'Test injection in API endpoints',
        'Test file upload handling',
        'Test rate limiting of sign-in',
      ],
    ),
    s(
      'CLOUD',
      'Cloud configuration',
      [],
      [
        'Review IAM policies and roles',
        'Check storage buckets for public exposure',
        'Review security groups',
        'Review secrets in CI/CD pipelines',
      ],
    ),
    s(
      'RPT',
      'Reporting',
      [],
      ['Write the draft findings report', 'Retest remediated findings', 'Present the executive readout'],
    ),
  ],
};

const VENDOR: Catalogue = {
  controls: false,
  verbs: [''],
  steps: ['Draft', 'Review with the client', 'Finalize'],
  sections: [
    s(
      'VRM',
      'Vendor risk management',
      [],
      [
        'Build the inventory of third-party vendors',
        'Define vendor risk tiers',
        'Draft the security questionnaire',
        'Collect SOC reports from critical vendors',
        'Review contracts for security clauses',
        'Set up the annual vendor review calendar',
        'Define offboarding steps for vendors',
        'Report vendor risk to the steering committee',
      ],
    ),
    s(
      'TPRM',
      'Tooling and process',
      [],
      [
        'Select the vendor risk platform',
        'Map the procurement intake process',
        'Train procurement on the intake questions',
        'Define escalation for high-risk findings',
        'Assess fourth-party dependencies of critical vendors',
        'Write the vendor risk management policy',
      ],
    ),
  ],
};

const CONTINUITY: Catalogue = {
  controls: false,
  verbs: [''],
  steps: ['Draft', 'Review with the client', 'Finalize'],
  sections: [
    s(
      'BIA',
      'Business impact analysis',
      [],
      [
        'Interview business process owners',
        'Set recovery time objectives',
        'Set recovery point objectives',
        'Identify critical dependencies',
        'Rank critical processes',
      ],
    ),
    s(
      'BCP',
      'Business continuity plan',
      [],
      [
        'Review the current continuity plan',
        'Define crisis communication',
        'Update the call tree',
        'Define manual workarounds',
      ],
    ),
    s(
      'DR',
      'Disaster recovery',
      [],
      ['Review backup coverage', 'Observe a restore test', 'Review the failover runbook', 'Report on recovery gaps'],
    ),
  ],
};

const CLOUD: Catalogue = {
  controls: false,
  verbs: [''],
  steps: ['Collect the configuration', 'Analyze', 'Write the recommendation'],
  sections: [
    s(
      'IAM',
      'Identity and access',
      [],
      [
        'Review root account protections',
        'Review IAM users with console access',
        'Review cross-account roles',
        'Check MFA on privileged users',
      ],
    ),
    s(
      'LOG',
      'Logging and monitoring',
      [],
      ['Confirm CloudTrail in all regions', 'Review GuardDuty findings', 'Check alerting on root sign-in'],
    ),
    s(
      'NET',
      'Network',
      [],
      ['Review security groups open to the internet', 'Review VPC flow logs', 'Review public load balancers'],
    ),
    s(
      'DATA',
      'Data protection',
      [],
      [
        'Check S3 public access blocks',
        'Review KMS key policies',
        'Check RDS encryption and snapshots',
        'Review backup vault settings',
      ],
    ),
  ],
};

export const CATALOGUES: Record<CatalogueName, Catalogue> = {
  soc2: SOC2,
  pci: PCI,
  hipaa: HIPAA,
  iso27001: ISO27001,
  pentest: PENTEST,
  vendor: VENDOR,
  continuity: CONTINUITY,
  cloud: CLOUD,
};

/** What people write on tasks, by where the work stands. */
export const COMMENTS = {
  open: [
    'Who owns this on your side? Please assign it so we can schedule the walkthrough.',
    'The request list went out by email as well; the evidence can go in the project folder.',
    'Can we move this to next week? The team is on the quarter close.',
  ],
  working: [
    'Working on it: the export from the identity provider is running.',
    'Waiting on IT for the configuration export.',
    'Please include a screenshot with the system date and time visible.',
    'We uploaded part of the sample; the rest follows on Friday.',
    'The population has 412 items; we selected 25 at random.',
  ],
  review: [
    'Evidence uploaded, ready for review.',
    'Two items in the sample lack an approval: documenting them as exceptions.',
    'Reviewed: the screenshots do not show the period end, please re-export.',
  ],
  done: [
    'Reviewed, complete. No exceptions noted.',
    'Tested the sample of 25: no exceptions.',
    'Closed after the walkthrough with the control owner.',
    'Not applicable: the system is out of scope this period.',
  ],
};
