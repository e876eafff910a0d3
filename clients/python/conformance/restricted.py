"""Step 24 of the conformance scenario (clients/README.md): a read-only restricted key reads an account and its
balances, and its attempt to move money is refused with 403 permission_denied before anything moves."""
from plinth import Plinth

from every_resource import ok, refused


def run(plinth, base_url):
    payer = plinth.accounts.create(type="business", country="US")
    payee = plinth.accounts.create(type="business", country="US")
    plinth.sandbox.deposit(payer.id, amount=1000)

    read_only = plinth.api_keys.create(name="read-only", permissions={"accounts": "read", "transactions": "read"})
    assert read_only.key.startswith("rk_test_"), read_only.key[:8]
    granted = read_only.permissions
    assert (granted.accounts, granted.transactions, granted.transfers, granted.api_keys) == ("read", "read", "none", "none"), granted
    listed = plinth.api_keys.retrieve(read_only.id).permissions
    assert (listed.accounts, listed.sandbox) == ("read", "none"), listed

    reader = Plinth(api_key=read_only.key, base_url=base_url)
    assert reader.accounts.retrieve(payer.id).id == payer.id
    assert reader.accounts.balances(payer.id).current_balance.amount == 1000
    refused(lambda: reader.transfers.create(from_account_id=payer.id, to_account_id=payee.id, amount=100, currency="USD"), 403, "permission_denied")

    after = plinth.accounts.balances(payer.id)
    assert (after.current_balance.amount, after.available_balance.amount) == (1000, 1000), after
    assert plinth.accounts.balances(payee.id).current_balance.amount == 0
    ok("24 a read-only key reads an account and its balances, and may not move money")
