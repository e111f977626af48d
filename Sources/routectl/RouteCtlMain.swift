import ArgumentParser
import RouteCtlCommands

// Thin entry point: everything routectl does lives in RouteCtlCommands, where tests reach it.
@main
extension RouteCtl {}
