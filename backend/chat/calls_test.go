package chat

import (
	"errors"
	"testing"
)

func TestCallStateMachine(t *testing.T) {
	legal := map[[2]CallState]bool{
		{CallPending, CallApproved}: true, {CallPending, CallDenied}: true,
		{CallInterrupted, CallApproved}: true, {CallInterrupted, CallDenied}: true,
		{CallProblem, CallApproved}: true, {CallProblem, CallProblem}: true,
		{CallApproved, CallRunning}: true, {CallApproved, CallError}: true, {CallApproved, CallPending}: true, {CallApproved, CallDenied}: true,
		{CallRunning, CallDone}: true, {CallRunning, CallError}: true, {CallRunning, CallInterrupted}: true,
	}
	all := []CallState{CallPending, CallApproved, CallRunning, CallDone, CallError, CallDenied, CallInterrupted, CallProblem}
	for _, from := range all {
		for _, to := range all {
			if got := CanMove(from, to); got != legal[[2]CallState{from, to}] {
				t.Errorf("CanMove(%s, %s) = %v", from, to, got)
			}
		}
	}
	c := Call{Name: "calc", State: CallDone}
	if err := c.Move(CallRunning); !errors.Is(err, ErrInvalid) || c.State != CallDone {
		t.Fatalf("a finished call must not run again: %v, state %s", err, c.State)
	}
}

func TestSettled(t *testing.T) {
	for state, want := range map[CallState]bool{CallPending: false, CallApproved: false, CallRunning: false,
		CallInterrupted: false, CallDone: true, CallError: true, CallDenied: true, CallProblem: false} {
		if got := (Call{State: state}).Settled(); got != want {
			t.Errorf("Settled(%s) = %v", state, got)
		}
	}
	if !(Call{State: CallProblem, ResultState: ToolError}).Settled() {
		t.Error("a problem the model was told about is settled")
	}
}
