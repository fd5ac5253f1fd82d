@_exported import Composable
