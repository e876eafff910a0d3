# flake8: noqa

# import apis into api package
from plinth_generated.api.api_keys_api import APIKeysApi
from plinth_generated.api.documentation_api import DocumentationApi
from plinth_generated.api.events_api import EventsApi
from plinth_generated.api.fintech_accounts_api import FintechAccountsApi
from plinth_generated.api.fintech_transactions_api import FintechTransactionsApi
from plinth_generated.api.fintech_transfers_api import FintechTransfersApi
from plinth_generated.api.operations_api import OperationsApi
from plinth_generated.api.requests_api import RequestsApi
from plinth_generated.api.webhooks_api import WebhooksApi

