// Prefixes the IRS has never issued (IRS "How EINs are assigned"); an EIN starting with one is not real.
const NEVER_ISSUED_EIN_PREFIXES = new Set([
  '00',
  '07',
  '08',
  '09',
  '17',
  '18',
  '19',
  '28',
  '29',
  '49',
  '69',
  '70',
  '78',
  '79',
  '89',
  '96',
  '97',
]);
export const ISSUED_EIN_PREFIXES = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')).filter(
  (prefix) => !NEVER_ISSUED_EIN_PREFIXES.has(prefix),
);
