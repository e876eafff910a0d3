<?php
// Router for `php -S`: answers from the script in $PLINTH_SCRIPT_DIR/script.json (a list of replies, first one first;
// an empty list answers 200 with an account; a reply with a `body` answers that) and logs each request (method, Idempotency-Key) to seen.jsonl,
// and what went on the wire (method, path with its query as sent, body) to wire.jsonl, and the Last-Event-ID header
// (the event stream's resume point) to last-event-id.jsonl.
declare(strict_types=1);

$dir = getenv('PLINTH_SCRIPT_DIR');
$account = '{"id":"acct_01M81E6QGW6FY4EAZBPP8CJ63K","object":"fintech.account","type":"business","country":"US",'
    . '"status":"active","available_balance":{"amount":0,"currency":"USD"},"kyb":null,"livemode":false,"created_at":"2026-11-22T10:53Z"}';
$script = json_decode((string) file_get_contents("$dir/script.json"), true) ?: [];
$reply = array_shift($script) ?? ['status' => 200, 'headers' => ['Request-Id' => 'req_OK']];
file_put_contents("$dir/script.json", json_encode($script));
file_put_contents("$dir/seen.jsonl", json_encode([$_SERVER['REQUEST_METHOD'], $_SERVER['HTTP_IDEMPOTENCY_KEY'] ?? null]) . "\n", FILE_APPEND);
file_put_contents("$dir/wire.jsonl", json_encode([$_SERVER['REQUEST_METHOD'], $_SERVER['REQUEST_URI'], file_get_contents('php://input')]) . "\n", FILE_APPEND);
file_put_contents("$dir/last-event-id.jsonl", json_encode($_SERVER['HTTP_LAST_EVENT_ID'] ?? null) . "\n", FILE_APPEND);
if (($reply['delay_ms'] ?? 0) > 0) {
    usleep($reply['delay_ms'] * 1000);
}
$status = $reply['status'];
http_response_code($status);
foreach ($reply['headers'] ?? [] as $name => $value) {
    header("$name: $value");
}
if ($status === 200) {
    header('Content-Type: application/json');
    echo $reply['body'] ?? $account;
} else {
    $code = $reply['code'];
    header('Content-Type: application/problem+json');
    echo json_encode(['type' => "/docs/errors#$code", 'title' => 't', 'status' => $status, 'detail' => 'd', 'code' => $code, 'request_id' => "req_P$status"]);
}
