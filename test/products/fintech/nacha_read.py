"""An independent NACHA reader for test/products/fintech/ach-export.test.ts: carta-ach's Parser (PyPI `carta-ach`,
installed by the test) reads the file Plinth wrote; this prints the file control's counts and totals and what the
entries themselves add up to, as JSON."""
import json
import sys

from ach.parser import Parser

with open(sys.argv[1]) as f:
    data = Parser(f.read()).as_dict()
control = data['file_control']
entries = [e['entry_detail'] for b in data['batches'] for e in b['entries']]
debit_codes = {'27', '37'}
print(json.dumps({
    'immediate_destination': data['file_header']['immediate_dest'].strip(),
    'batch_count': int(control['batch_count']),
    'entry_count': int(control['entadd_count']),
    'debit_total': int(control['debit_amount']),
    'credit_total': int(control['credit_amount']),
    'entries_counted': len(entries),
    'entries_debit': sum(int(e['amount']) for e in entries if e['transaction_code'] in debit_codes),
    'entries_credit': sum(int(e['amount']) for e in entries if e['transaction_code'] not in debit_codes),
    'batch_companies': [b['batch_header']['company_name'].strip() for b in data['batches']],
    'traces': [e['trace_num'] for e in entries],
    'accounts': [e['dfi_acnt_num'].strip() for e in entries],
}))
