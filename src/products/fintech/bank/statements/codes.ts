import type { LineKind } from './statement.ts';

/**
 * The bank transaction codes Plinth reads (docs/deploy.md, "Statements in"). BAI2: 100–399 are credits and 400–699
 * debits; of them 165/169/195 are money in for a virtual number, 455/469 the settlement of an ACH entry Plinth sent,
 * 266 an ACH return of one, 698 a fee. camt.053: the ISO `BkTxCd` domain/family/sub-family.
 */
export const BAI_KIND: Record<string, LineKind> = {
  '165': 'credit',
  '169': 'credit',
  '195': 'credit',
  '455': 'ach_settlement',
  '469': 'ach_settlement',
  '266': 'ach_return',
  '698': 'fee',
};

/** The code each kind is written with (the fixtures; the first of BAI_KIND's codes for it). */
export const BAI_CODE: Record<LineKind, string> = {
  credit: '165',
  ach_settlement: '455',
  ach_return: '266',
  fee: '698',
  other: '399',
};

export const CAMT_CODE: Record<LineKind, [string, string, string]> = {
  credit: ['PMNT', 'RCDT', 'ACDT'],
  ach_settlement: ['PMNT', 'ICDT', 'ACDT'],
  ach_return: ['PMNT', 'ICDT', 'ARET'],
  fee: ['ACMT', 'MDOP', 'CHRG'],
  other: ['XTND', 'NTAV', 'NTAV'],
};

/** A camt.053 entry's kind by its domain, family and sub-family code. */
export function camtKind(domain: string, family: string, sub: string): LineKind {
  if (domain === 'PMNT' && family === 'RCDT') return 'credit';
  if (domain === 'PMNT' && family === 'ICDT') return sub === 'ARET' ? 'ach_return' : 'ach_settlement';
  if (domain === 'ACMT' && sub === 'CHRG') return 'fee';
  return 'other';
}

/** The direction of a BAI2 type code: 100–399 credit, 400–699 debit. */
export function baiDirection(code: string): 'credit' | 'debit' | null {
  const n = Number(code);
  if (!/^[0-9]{3}$/.test(code)) return null;
  if (n >= 100 && n <= 399) return 'credit';
  if (n >= 400 && n <= 699) return 'debit';
  return null;
}
