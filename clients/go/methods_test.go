package plinth

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Every name of methods.json (the manifest `npm run clients:coverage` reads) is a method of the client: a service
// field of Client and a method of it, found by reflection, or one of the package's functions below.
func TestMethodsJSONNamesExist(t *testing.T) {
	data, err := os.ReadFile("methods.json")
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string][]string
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	// Package-level functions cannot be found by name at run time; naming them here makes the compiler check them.
	functions := map[string]any{"plinth.SignUp": SignUp}
	client := reflect.ValueOf(New("sk_test_x")).Elem()
	count := 0
	for operation, names := range manifest {
		if len(names) == 0 {
			t.Errorf("%s: no method", operation)
		}
		for _, name := range names {
			count++
			if _, ok := functions[name]; ok {
				continue
			}
			service, method, _ := strings.Cut(name, ".")
			field := client.FieldByName(service)
			if !field.IsValid() || !field.MethodByName(method).IsValid() {
				t.Errorf("%s: %s is not a method of the client", operation, name)
			}
		}
	}
	if count < 30 {
		t.Errorf("methods.json names %d methods", count)
	}
}
